package dev.ourios.compaction.verify;

import dev.ourios.compaction.sort.HourServiceCounts;
import dev.ourios.core.LogRecord;
import dev.ourios.table.Cover;
import dev.ourios.table.ServiceRows;
import java.util.ArrayList;
import java.util.List;

/**
 * A day partition's rows counted by hour of the day and service as they are read ({@link HourServiceCounts}, as a
 * rollup counts the rows it writes), and held to the day manifest's covers (STORAGE.md §4.15): a cover's
 * {@code services} are the exact rows of its hour in the day files per service (a count of whole covered hours is
 * answered from them without reading the files), and a cover without them has {@code rows} at least the hour's rows
 * there (an upper bound after a deletion). A void cover's rows are still in the day files (dead rows), so every cover
 * is held to them.
 */
final class CoverTally {
    private final HourServiceCounts counts;

    CoverTally(long dayStartNanos) {
        this.counts = new HourServiceCounts(dayStartNanos);
    }

    /** Counts a row of the day (its tenant and day checked by the caller). */
    void add(LogRecord row) {
        counts.add(row.effectiveTime(), row.serviceName());
    }

    /** What disagrees between the rows counted and {@code covers}, each naming {@code manifest} and the hour. */
    List<String> compare(List<Cover> covers, String manifest) {
        List<String> problems = new ArrayList<>();
        for (Cover c : covers) {
            String where = manifest + ": the cover of hour " + c.hourLabel();
            if (c.services().isEmpty()) {
                long total = counts.rows(c.hour());
                if (total > c.rows()) {
                    problems.add(where + " says at most " + c.rows() + " rows, the day files hold " + total);
                }
                continue;
            }
            List<ServiceRows> counted = counts.services(c.hour());
            if (!c.services().get().equals(counted)) {
                problems.add(where + " says " + describe(c.services().get()) + ", the day files hold "
                        + describe(counted));
            }
        }
        return problems;
    }

    /** Rows by service, in the covers' order, bounded for a message. */
    private static String describe(List<ServiceRows> rows) {
        StringBuilder b = new StringBuilder();
        for (ServiceRows s : rows) {
            if (b.length() > 300) {
                return b.append(", …").toString();
            }
            b.append(b.length() == 0 ? "" : ", ").append(s.service().map(n -> "'" + n + "'").orElse("no service"))
                    .append(' ').append(s.rows());
        }
        return b.length() == 0 ? "no rows" : b.toString();
    }
}
