package dev.ourios.query;

import dev.ourios.core.Columns;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.read.GroupStatistics;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * Whether a row group's column statistics prove that every row of it passes the partition's checks and matches a
 * query decided on columns (no body substring, no row condition), and if so the bounds of the rows' effective times.
 * Every check a row would get is proven for the whole group or nothing is: the tenant column holds the partition's
 * tenant throughout; time_unix_nano lies inside the partition's hour and is never 0 (so it is each row's effective
 * time for the partition check), or, in a compaction output of this store, the stored effective time does (it is
 * each row's, storage.md 2.5); the effective time (the stored column, or time_unix_nano in a file without it)
 * lies inside the query's window; the severity is at least the floor; the promoted service column holds the
 * query's service throughout. A query for a trace id or a template id is never proven this way.
 */
final class GroupProof {
    private GroupProof() {
    }

    static Optional<GroupStatistics.LongBounds> matchingTimes(Query q, PartitionKey.Rows partition,
            GroupStatistics g) {
        if (q.traceId().isPresent() || q.templateId().isPresent() || q.bodyContains().isPresent()
                || q.condition().isPresent()) {
            return Optional.empty();
        }
        if (!holdsExactly(g, Columns.TENANT_ID, partition.tenantId())) {
            return Optional.empty();
        }
        Optional<GroupStatistics.LongBounds> time = g.longBounds(Columns.TIME);
        Optional<GroupStatistics.LongBounds> effective = g.hasColumn(Columns.EFFECTIVE_TIME)
                ? g.longBounds(Columns.EFFECTIVE_TIME) : time;
        boolean timesInside = time.isPresent() && time.get().min() >= Math.max(1, partition.fromNanos())
                && time.get().max() < partition.toNanos();
        // A compaction output's stored effective times are its rows' own (storage.md 2.5): they decide the check.
        boolean effectiveInside = g.compactionOutput() && g.hasColumn(Columns.EFFECTIVE_TIME) && effective.isPresent()
                && effective.get().min() >= partition.fromNanos() && effective.get().max() < partition.toNanos();
        if (!timesInside && !effectiveInside) {
            return Optional.empty();
        }
        if (effective.isEmpty() || effective.get().min() < q.fromNanos() || effective.get().max() >= q.toNanos()) {
            return Optional.empty();
        }
        if (q.severityMin().isPresent()) {
            Optional<GroupStatistics.LongBounds> severity = g.longBounds(Columns.SEVERITY_NUMBER);
            if (severity.isEmpty() || severity.get().min() < q.severityMin().getAsInt()) {
                return Optional.empty();
            }
        }
        if (q.service().isPresent() && !holdsExactly(g, Columns.SERVICE_NAME, q.service().get())) {
            return Optional.empty();
        }
        return effective;
    }

    /** The group's column holds {@code value}'s UTF-8 in every row (and that UTF-8 decodes back to the value). */
    private static boolean holdsExactly(GroupStatistics g, String column, String value) {
        return constantString(g, column).filter(value::equals).isPresent();
    }

    /**
     * The string every row of the group holds in {@code column}, when its bytes are valid UTF-8 that a decoder gives
     * back unchanged (so it is the value a decoded row would carry).
     */
    static Optional<String> constantString(GroupStatistics g, String column) {
        return g.constantBytes(column).flatMap(bytes -> {
            String s = new String(bytes, StandardCharsets.UTF_8);
            return Arrays.equals(bytes, s.getBytes(StandardCharsets.UTF_8)) ? Optional.of(s) : Optional.empty();
        });
    }
}
