package dev.ourios.http;

/**
 * How a listener spells an error response. The query API uses {@link #JSON}; the OTLP receiver answers in the
 * request's own encoding once it knows it, and with {@link #JSON} for what the server refuses before that.
 */
@FunctionalInterface
public interface ErrorBody {
    /** {@code {"error":{"status","field","message","request_id"}}}. */
    ErrorBody JSON = (status, field, message, requestId, requestContentType) -> new Rendered("application/json; charset=utf-8",
            Json.bytes(Json.error(status, field, message, requestId)));

    /** @param requestContentType the request's Content-Type, or null (unknown, or a request Jetty could not parse) */
    Rendered render(int status, String field, String message, String requestId, String requestContentType);

    /** A rendered error: its media type and bytes. */
    record Rendered(String contentType, byte[] body) {
    }
}
