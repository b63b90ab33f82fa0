package dev.ourios.core;

/**
 * The time a query filters and orders on. The stored {@code effective_time_unix_nano} when the row has one;
 * otherwise (files written before the column existed) the effective time recomputed from the source columns,
 * which is {@code time_unix_nano} whenever that is known. Deliberate: for the rare old row with
 * {@code time_unix_nano = 0} this uses the observed time rather than 0, because that is the hour the row's
 * partition path was chosen by, and what compaction re-projects into the column; the result of a query therefore
 * does not change when the partition is compacted.
 */
public final class RowTime {
    private RowTime() {
    }

    public static long of(LogRecord r) {
        Long stored = r.effectiveTimeUnixNano();
        return stored != null ? stored : r.effectiveTime();
    }
}
