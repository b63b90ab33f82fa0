package dev.ourios.query;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.parquet.read.ColumnTest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The exact row predicate: the fixed filters on their columns, then the body substring and the row filter (a compiled
 * search) on the whole row. Parquet pruning only skips data that cannot match; every row that is decoded is still
 * decided here, so results never depend on which statistics, dictionaries or blooms a file happens to have.
 *
 * <p>Service: the promoted {@code resource.service.name} column; for rows from files older than that column the
 * value is derived the way the writer promotes it (first string {@code service.name} in resource_attributes).
 */
final class RowMatcher {
    private static final String SERVICE_KEY = "service.name";

    private final Query query;
    private final long from;
    private final long to;
    private final byte[] needle;

    RowMatcher(Query query) {
        this.query = query;
        this.from = query.fromNanos();
        this.to = query.toNanos();
        this.needle = query.needle().orElse(null);
    }

    boolean matches(LogRecord r) {
        return matchesExceptText(r) && matchesWholeRow(r);
    }

    /**
     * The conditions on the whole row alone, the body substring and then the row filter (true without them): what is
     * left once a prefilter has kept a row.
     */
    boolean matchesWholeRow(LogRecord r) {
        if (needle != null) {
            byte[] line = LineText.of(r);
            if (line == null || !LineText.contains(line, needle)) {
                return false;
            }
        }
        return query.rowFilter().isEmpty() || query.rowFilter().get().test(r);
    }

    /** Whether {@link #matchesExceptText} decides every row: no condition needs the row decoded whole. */
    boolean decidedByColumns() {
        return needle == null && query.rowFilter().isEmpty();
    }

    /**
     * Every condition but the body substring; reads only {@link #columnsExceptText}: what a reader decides before it
     * decodes the rest of a row ({@link dev.ourios.parquet.read.RowPrefilter}).
     */
    boolean matchesExceptText(LogRecord r) {
        long t = RowTime.of(r);
        if (t < from || t >= to) {
            return false;
        }
        if (query.severityMin().isPresent() && r.severityNumber() < query.severityMin().getAsInt()) {
            return false;
        }
        if (query.templateId().isPresent() && r.templateId() != query.templateId().getAsLong()) {
            return false;
        }
        if (query.traceId().isPresent() && !Arrays.equals(query.traceId().get(), r.traceId())) {
            return false;
        }
        return query.service().isEmpty() || query.service().get().equals(service(r));
    }

    /**
     * The columns {@link #matchesExceptText} reads for this query, with those of the tenant and partition checks:
     * the tenant, the row's time (effective, else recomputed from time and observed time), and the columns of the
     * conditions the query has (the service also from resource_attributes, for rows without the promoted column).
     */
    Set<String> columnsExceptText() {
        Set<String> columns = new HashSet<>(List.of(Columns.TENANT_ID, Columns.EFFECTIVE_TIME, Columns.TIME,
                Columns.OBSERVED_TIME));
        if (query.severityMin().isPresent()) {
            columns.add(Columns.SEVERITY_NUMBER);
        }
        if (query.templateId().isPresent()) {
            columns.add(Columns.TEMPLATE_ID);
        }
        if (query.traceId().isPresent()) {
            columns.add(Columns.TRACE_ID);
        }
        if (query.service().isPresent()) {
            columns.add(Columns.SERVICE_NAME);
            columns.add(Columns.RESOURCE_ATTRIBUTES);
        }
        return Set.copyOf(columns);
    }

    /**
     * Necessary conditions of {@link #matchesExceptText} on single columns, the most selective first, for a reader to
     * reject a row on one value before decoding it (see {@link ColumnTest}): the trace id equal (a row without one
     * never matches); the template id equal (null reads as 0); the promoted service equal or null (a null service
     * is derived from the resource attributes, which the matcher decides); the effective time in the window or null
     * (a null one is recomputed from the source columns); the severity at least the floor (null reads as 0).
     */
    List<ColumnTest> columnTests() {
        List<ColumnTest> tests = new ArrayList<>();
        query.traceId().ifPresent(id -> tests.add(new ColumnTest.BytesEqual(Columns.TRACE_ID, id, false)));
        if (query.templateId().isPresent()) {
            long id = query.templateId().getAsLong();
            tests.add(new ColumnTest.LongRange(Columns.TEMPLATE_ID, id, id, id == 0));
        }
        // A stored value that is not valid UTF-8 reads as a string with U+FFFD in it, which no byte comparison
        // with the service's own UTF-8 would find: such a service is left to the matcher.
        query.service().filter(s -> s.indexOf('\uFFFD') < 0).ifPresent(s -> tests.add(
                new ColumnTest.BytesEqual(Columns.SERVICE_NAME, s.getBytes(StandardCharsets.UTF_8), true)));
        if ((query.from().isPresent() || query.to().isPresent()) && from < to) {
            tests.add(new ColumnTest.LongRange(Columns.EFFECTIVE_TIME, from, to - 1, true));
        }
        if (query.severityMin().isPresent()) {
            int floor = query.severityMin().getAsInt();
            tests.add(new ColumnTest.LongRange(Columns.SEVERITY_NUMBER, floor, Long.MAX_VALUE, floor <= 0));
        }
        return List.copyOf(tests);
    }

    private static String service(LogRecord r) {
        if (r.serviceName() != null) {
            return r.serviceName();
        }
        return AttributesJson.firstString(r.resourceAttributes(), SERVICE_KEY).orElse(null);
    }
}
