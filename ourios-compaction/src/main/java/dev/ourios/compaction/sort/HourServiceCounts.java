package dev.ourios.compaction.sort;

import dev.ourios.table.ServiceRows;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows a rollup writes, counted by hour of the day and service (docs/spec/storage.md 4.15, "Service counts"): what
 * a day manifest's covers say of their hours. Each input reader counts the rows it hands over in one of these; they are
 * added up once every input is read, so the counts do not depend on which reader read what. Not thread-safe.
 */
public final class HourServiceCounts {
    private static final long HOUR_NANOS = 3_600_000_000_000L;
    private static final int HOURS = 24;

    private final long dayStartNanos;
    /** Per hour of the day: rows by service (the null key: rows without one). */
    private final List<Map<String, long[]>> byHour = new ArrayList<>(HOURS);

    /** Counts of the day starting at {@code dayStartNanos} (effective time, UTC midnight). */
    public HourServiceCounts(long dayStartNanos) {
        this.dayStartNanos = dayStartNanos;
        for (int h = 0; h < HOURS; h++) {
            byHour.add(new HashMap<>());
        }
    }

    /** Counts one row of this effective time and service (null: none); the row lies in the day (checked by then). */
    public void add(long effectiveTimeUnixNano, String service) {
        long hour = Math.floorDiv(effectiveTimeUnixNano - dayStartNanos, HOUR_NANOS);
        if (hour < 0 || hour >= HOURS) {
            throw new IllegalArgumentException("BUG: a row at " + effectiveTimeUnixNano + " ns counted outside the day "
                    + "starting at " + dayStartNanos + " ns");
        }
        byHour.get((int) hour).computeIfAbsent(service, s -> new long[1])[0]++;
    }

    /** The start of the day counted (effective time, UTC midnight). */
    public long dayStartNanos() {
        return dayStartNanos;
    }

    /** Adds {@code other}'s counts (of the same day) to these. */
    public void addAll(HourServiceCounts other) {
        if (other.dayStartNanos != dayStartNanos) {
            throw new IllegalArgumentException("BUG: counts of two days added up");
        }
        for (int h = 0; h < HOURS; h++) {
            Map<String, long[]> mine = byHour.get(h);
            other.byHour.get(h).forEach((service, n) -> mine.computeIfAbsent(service, s -> new long[1])[0] += n[0]);
        }
    }

    /** The rows counted in {@code hour} (0 to 23). */
    public long rows(int hour) {
        long n = 0;
        for (long[] c : byHour.get(hour).values()) {
            n += c[0];
        }
        return n;
    }

    /** The rows counted in {@code hour} per service, in a cover's order ({@link ServiceRows#ORDER}). */
    public List<ServiceRows> services(int hour) {
        List<ServiceRows> out = new ArrayList<>();
        byHour.get(hour).forEach((service, n) -> out.add(ServiceRows.of(service, n[0])));
        out.sort(ServiceRows.ORDER);
        return List.copyOf(out);
    }
}
