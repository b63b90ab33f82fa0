package dev.ourios.query;

import dev.ourios.core.PartitionKey;
import java.util.Set;

/**
 * What one file read by a partition scan must hold and which of its rows count (docs/spec/storage.md 2.5, 4.15): an
 * hour's file holds that hour's rows, all of which count; a day partition's file holds the day's rows, of which only
 * those of the hours read count (the rest are skipped, never an error).
 *
 * @param partition the hour an error about the file names
 * @param rows      the tenant and times every row of the file must have
 * @param hours     the hours of the day (0 to 23) whose rows count; null: every row of {@code rows}
 * @param proof     the bound a row group must lie within to be proven whole from its statistics; null: no proof
 */
record FileRule(PartitionKey partition, PartitionKey.Rows rows, Set<Integer> hours, PartitionKey.Rows proof) {
    private static final long HOUR_NANOS = 3_600_000_000_000L;

    /** An hour partition's file. */
    static FileRule hourFile(PartitionKey hour) {
        return new FileRule(hour, hour.rows(), null, hour.rows());
    }

    /** A day file read for one covered hour. */
    static FileRule dayFileOfHour(PartitionKey hour) {
        return new FileRule(hour, dayRows(hour), Set.of(hour.hour()), hour.rows());
    }

    /** A day file read once for several covered hours of its day ({@code label} names it in errors). */
    static FileRule dayFileOfHours(PartitionKey label, Set<Integer> hours) {
        return new FileRule(label, dayRows(label), Set.copyOf(hours), null);
    }

    /** True if a row of this effective time counts (it is in {@link #rows} already). */
    boolean counts(long effectiveTimeUnixNano) {
        return hours == null || hours.contains((int) ((effectiveTimeUnixNano - rows.fromNanos()) / HOUR_NANOS));
    }

    /** The effective times the counted rows lie in: the pushdown is narrowed to them. */
    long fromNanos() {
        return hours == null ? rows.fromNanos()
                : rows.fromNanos() + hours.stream().mapToInt(Integer::intValue).min().orElse(0) * HOUR_NANOS;
    }

    long toNanos() {
        return hours == null ? rows.toNanos()
                : rows.fromNanos() + (hours.stream().mapToInt(Integer::intValue).max().orElse(-1) + 1) * HOUR_NANOS;
    }

    /** The tenant and the UTC day of {@code hour}: what every row of its day file must belong to. */
    static PartitionKey.Rows dayRows(PartitionKey hour) {
        long from = hour.hourStartNanos() - hour.hour() * HOUR_NANOS;
        return new PartitionKey.Rows(hour.tenantId(), from, from + 24 * HOUR_NANOS);
    }
}
