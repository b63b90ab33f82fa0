package dev.ourios.compaction.verify;

import dev.ourios.core.LogRecord;
import dev.ourios.table.Cover;
import dev.ourios.table.ServiceRows;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A day partition's rows counted by hour of the day and service, as they are read, and held to the day manifest's
 * covers (STORAGE.md §4.15): a cover's {@code services} are the exact rows of its hour in the day files per service
 * (a count of whole covered hours is answered from them without reading the files), and a cover without them has
 * {@code rows} at least the hour's rows there (an upper bound after a deletion). A void cover's rows are still in the
 * day files (dead rows), so every cover is held to them.
 */
final class CoverTally {
    private static final long HOUR_NANOS = 3_600_000_000_000L;
    private final long dayStartNanos;
    /** By hour of the day: rows by service (the empty service: rows without one). */
    private final List<Map<Optional<String>, Long>> byHour = new ArrayList<>();

    CoverTally(long dayStartNanos) {
        this.dayStartNanos = dayStartNanos;
        for (int h = 0; h < 24; h++) {
            byHour.add(new HashMap<>());
        }
    }

    /** Counts a row of the day (its tenant and day checked by the caller). */
    void add(LogRecord row) {
        int hour = (int) ((row.effectiveTime() - dayStartNanos) / HOUR_NANOS);
        byHour.get(hour).merge(Optional.ofNullable(row.serviceName()), 1L, Long::sum);
    }

    /** What disagrees between the rows counted and {@code covers}, each naming {@code manifest} and the hour. */
    List<String> compare(List<Cover> covers, String manifest) {
        List<String> problems = new ArrayList<>();
        for (Cover c : covers) {
            Map<Optional<String>, Long> counted = byHour.get(c.hour());
            long total = counted.values().stream().mapToLong(Long::longValue).sum();
            String where = manifest + ": the cover of hour " + c.hourLabel();
            if (c.services().isEmpty()) {
                if (total > c.rows()) {
                    problems.add(where + " says at most " + c.rows() + " rows, the day files hold " + total);
                }
                continue;
            }
            Map<Optional<String>, Long> said = new HashMap<>();
            for (ServiceRows s : c.services().get()) {
                said.put(s.service(), s.rows());
            }
            if (!said.equals(counted)) {
                problems.add(where + " says " + describe(said) + ", the day files hold " + describe(counted));
            }
        }
        return problems;
    }

    /** Rows by service, in the covers' order, bounded for a message. */
    private static String describe(Map<Optional<String>, Long> rows) {
        List<Optional<String>> services = new ArrayList<>(rows.keySet());
        services.sort(ServiceRows::compareServices);
        StringBuilder b = new StringBuilder();
        for (Optional<String> s : services) {
            if (b.length() > 300) {
                return b.append(", …").toString();
            }
            b.append(b.length() == 0 ? "" : ", ").append(s.map(n -> "'" + n + "'").orElse("no service"))
                    .append(' ').append(rows.get(s));
        }
        return b.length() == 0 ? "no rows" : b.toString();
    }
}
