package dev.ourios.bench.ingest;

/**
 * One timed OTLP/HTTP window: what the clients saw, then the drain (every WAL record flushed), the rows the store
 * holds afterwards, the WAL's group commits over the window and, when a partition compacted beside it, the
 * sweep's seconds (-1 without).
 */
public record HttpRound(LoadResult load, double drainSeconds, long rowsLanded, long walSyncs,
        double compactionSeconds) {

    /** Acknowledged records per second of window and drain together: the pace into published files. */
    public double recordsPerSecondToFiles() {
        return load.records() / (load.seconds() + drainSeconds);
    }
}
