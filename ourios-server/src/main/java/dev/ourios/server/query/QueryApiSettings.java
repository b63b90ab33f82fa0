package dev.ourios.server.query;

import dev.ourios.http.ServerOptions;
import dev.ourios.server.tail.TailSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * The query API of the service ({@code POST /v1/query}, {@code GET /v1/files}, {@code POST /v1/delete},
 * {@code /healthz}, {@code /readyz}).
 *
 * @param listener             address, threads, queue, timeouts, connection limit and TLS; the OTLP receiver takes
 *                             its timeouts, limits and TLS from here too
 * @param listenSetting        how messages name the listen address's setting
 * @param maxBodyBytes         larger request bodies are refused with 413 before they are read
 * @param maxRows              the most rows one query returns, and its default limit
 * @param maxResponseBytes     the rows of one response stop after about this many bytes
 * @param maxConcurrentQueries queries running at once (beyond it 429)
 * @param queryTimeout         the deadline of one query (stats and fields requests included)
 * @param tail                 live tail bounds ({@code GET /v1/tail})
 * @param uiEnabled            whether the web UI ({@link dev.ourios.server.ui.UiRoutes}) is served at {@code /}
 */
public record QueryApiSettings(ServerOptions listener, String listenSetting, int maxBodyBytes, int maxRows,
        long maxResponseBytes, int maxConcurrentQueries, Duration queryTimeout, TailSettings tail,
        boolean uiEnabled) {
    public QueryApiSettings {
        Objects.requireNonNull(tail, "tail");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(listenSetting, "listenSetting");
        Objects.requireNonNull(queryTimeout, "queryTimeout");
        if (maxBodyBytes < 1 || maxRows < 1 || maxResponseBytes < 1 || maxConcurrentQueries < 1) {
            throw new IllegalArgumentException("maxBodyBytes, maxRows, maxResponseBytes and maxConcurrentQueries "
                    + "must be positive");
        }
    }
}
