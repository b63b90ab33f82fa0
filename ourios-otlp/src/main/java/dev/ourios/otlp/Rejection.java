package dev.ourios.otlp;

/**
 * Why one log record was refused: a stable {@code reason} (a metric attribute value) and a message for the
 * client's {@code partial_success.error_message}.
 */
public record Rejection(String reason, String message) {
    public static final String INVALID_TRACE_ID = "invalid_trace_id";
    public static final String INVALID_SPAN_ID = "invalid_span_id";
    public static final String TIMESTAMP_OUT_OF_RANGE = "timestamp_out_of_range";
    public static final String INVALID_SEVERITY = "invalid_severity";
    public static final String INVALID_VALUE = "invalid_value";
    public static final String RETENTION_EXPIRED = "retention_expired";
}
