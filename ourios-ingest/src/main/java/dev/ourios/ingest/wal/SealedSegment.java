package dev.ourios.ingest.wal;

/** A segment closed for appends and fsynced, ready to flush; {@code bytes} is its size on disk. */
public record SealedSegment(Segment segment, long bytes) {
}
