package dev.ourios.otlp;

/**
 * A check of one OTLP log record beyond what the decoder itself requires of every record: a policy of the store
 * (the tenant's retention) rather than a property of the record.
 */
@FunctionalInterface
public interface RecordScreen {
    /** Refuses nothing. */
    RecordScreen NONE = r -> null;

    /** Null when the record may be stored, else why not. */
    Rejection check(io.opentelemetry.proto.logs.v1.LogRecord r);
}
