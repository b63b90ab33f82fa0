package dev.ourios.ingest;

import dev.ourios.otlp.Rejection;
import java.util.List;

/**
 * What became of one export request's records. {@code status} 200 means every accepted record is durable;
 * otherwise nothing of the request was stored and the client should retry after {@code retryAfterSeconds}.
 */
public record IngestResult(int status, long accepted, List<Rejection> rejections, String errorMessage,
        int retryAfterSeconds) {

    public static IngestResult durable(long accepted, List<Rejection> rejections, String errorMessage) {
        return new IngestResult(200, accepted, rejections, errorMessage, 0);
    }

    public static IngestResult refused(int status, String message, int retryAfterSeconds) {
        return new IngestResult(status, 0, List.of(), message, retryAfterSeconds);
    }
}
