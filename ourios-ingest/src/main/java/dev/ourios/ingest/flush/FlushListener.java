package dev.ourios.ingest.flush;

/** What the flusher reports, for metrics. */
public interface FlushListener {
    /** One ingest file published ({@code created}) or found already published by an earlier flush of the segment. */
    void file(String tenant, long rows, long bytes, boolean created);

    /** One segment flushed and deleted, in {@code nanos}; or failed ({@code error} non-null) and kept for a retry. */
    void segment(long nanos, Throwable error);

    FlushListener NONE = new FlushListener() {
        @Override
        public void file(String tenant, long rows, long bytes, boolean created) {
        }

        @Override
        public void segment(long nanos, Throwable error) {
        }
    };
}
