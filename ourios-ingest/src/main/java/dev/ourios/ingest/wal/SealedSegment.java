package dev.ourios.ingest.wal;

/**
 * A segment closed for appends and fsynced, ready to flush; {@code bytes} is its size on disk. {@code recovered}
 * marks a segment an earlier process left: it may have been flushed, in part or whole, before that process died.
 */
public record SealedSegment(Segment segment, long bytes, boolean recovered) {
}
