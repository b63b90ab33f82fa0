package dev.ourios.query;

import dev.ourios.core.Columns;
import dev.ourios.parquet.read.FilterColumns;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators.LongColumn;
import org.apache.parquet.io.api.Binary;

/**
 * The filter2 predicate handed to parquet-java for row-group pruning (statistics, dictionaries, bloom filters) and
 * page pruning (column index). It must never exclude a row {@link RowMatcher} would accept: it may only be
 * weaker. A column missing from a file reads as all-null to filter2, which decides how each arm is written.
 *
 * <p>Time: {@code (eff ∈ window) OR (eff IS NULL AND (time ∈ window OR time = 0))}. On files written with the
 * effective-time column the null-count statistics make the second arm impossible, so pruning is on the effective
 * time alone; on old files without the column the first arm is impossible and the second prunes on
 * time_unix_nano, keeping {@code time = 0} rows whose effective time comes from the observed time.
 *
 * <p>Service: {@code resource.service.name = X} only for files that have the column. A file without it must be
 * read with a predicate that leaves the service out, since the column would count as null and prune every group
 * although the row's service (derived from resource_attributes) may match.
 *
 * <p>Body substring: no pushdown (no Parquet structure can rule it out).
 */
final class Pushdown {
    private Pushdown() {
    }

    static Optional<FilterPredicate> of(Query q, boolean fileHasServiceColumn) {
        List<FilterPredicate> parts = new ArrayList<>();
        time(q).ifPresent(parts::add);
        if (q.service().isPresent() && fileHasServiceColumn) {
            parts.add(FilterApi.eq(FilterColumns.binary(Columns.SERVICE_NAME), Binary.fromString(q.service().get())));
        }
        if (q.templateId().isPresent()) {
            parts.add(FilterApi.eq(FilterApi.longColumn(Columns.TEMPLATE_ID), q.templateId().getAsLong()));
        }
        if (q.severityMin().isPresent()) {
            int n = q.severityMin().getAsInt();
            // severity_number is an unsigned 8-bit column: only a bound inside 1..255 is meaningful to its
            // (unsigned) statistics; anything else is left to the exact matcher.
            if (n > 0 && n <= 255) {
                parts.add(FilterApi.gtEq(FilterApi.intColumn(Columns.SEVERITY_NUMBER), n));
            }
        }
        if (q.traceId().isPresent()) {
            parts.add(FilterApi.eq(FilterApi.binaryColumn(Columns.TRACE_ID),
                    Binary.fromConstantByteArray(q.traceId().get())));
        }
        return parts.stream().reduce(FilterApi::and);
    }

    private static Optional<FilterPredicate> time(Query q) {
        if (q.from().isEmpty() && q.to().isEmpty()) {
            return Optional.empty();
        }
        LongColumn eff = FilterApi.longColumn(Columns.EFFECTIVE_TIME);
        LongColumn time = FilterApi.longColumn(Columns.TIME);
        FilterPredicate effInWindow = range(q, eff);
        FilterPredicate fallback = FilterApi.or(range(q, time), FilterApi.eq(time, 0L));
        return Optional.of(FilterApi.or(effInWindow, FilterApi.and(FilterApi.eq(eff, (Long) null), fallback)));
    }

    private static FilterPredicate range(Query q, LongColumn c) {
        FilterPredicate lo = q.from().isPresent() ? FilterApi.gtEq(c, q.fromNanos()) : null;
        FilterPredicate hi = q.to().isPresent() ? FilterApi.lt(c, q.toNanos()) : null;
        if (lo != null && hi != null) {
            return FilterApi.and(lo, hi);
        }
        return lo != null ? lo : hi;
    }
}
