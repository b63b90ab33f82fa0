package dev.ourios.ingest.wal;

/** One write-ahead-log record: a tenant and the OTLP logs request (protobuf) of its accepted records. */
public record WalEntry(String tenant, byte[] payload) {
}
