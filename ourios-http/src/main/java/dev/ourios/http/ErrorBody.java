package dev.ourios.http;

/**
 * How a listener spells an error response. The query API uses {@link #JSON}; the OTLP receiver answers in the
 * request's own encoding once it knows it, and with {@link #JSON} for what the server refuses before that.
 */
@FunctionalInterface
public interface ErrorBody {
    /** {@code {"error":{"status","field","message","request_id"}}}. */
    ErrorBody JSON = (status, field, message, requestId) -> new Rendered("application/json; charset=utf-8",
            Json.bytes(Json.error(status, field, message, requestId)));

    Rendered render(int status, String field, String message, String requestId);

    /** A rendered error: its media type and bytes. */
    record Rendered(String contentType, byte[] body) {
    }
}
