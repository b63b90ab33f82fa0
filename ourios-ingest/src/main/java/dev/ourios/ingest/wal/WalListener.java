package dev.ourios.ingest.wal;

/** What the write-ahead log reports, for metrics. */
public interface WalListener {
    /** One group commit: {@code frames} frames of {@code bytes} bytes written and fsynced in {@code nanos}. */
    void synced(int frames, long bytes, long nanos);

    WalListener NONE = (frames, bytes, nanos) -> { };
}
