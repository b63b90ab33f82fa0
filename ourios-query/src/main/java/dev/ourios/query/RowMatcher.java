package dev.ourios.query;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.RowCondition;
import dev.ourios.core.RowPredicate;
import dev.ourios.parquet.read.ColumnTest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A query's row predicate for the readers: the exact predicate ({@link RowPredicate}, shared with deletion requests)
 * split into the body condition and the rest, and what a reader may decide before decoding a row (the columns the
 * conditions read, and single-column tests).
 */
final class RowMatcher {
    private final Query query;
    private final long from;
    private final long to;
    private final RowPredicate predicate;
    /**
     * The row condition when it reads only some columns ({@link RowCondition#columns()}): it is then decided with
     * the other conditions on those columns, before a row is decoded whole, and not again on the whole row.
     */
    private final RowCondition onColumns;

    RowMatcher(Query query) {
        this.query = query;
        this.from = query.fromNanos();
        this.to = query.toNanos();
        this.predicate = new RowPredicate(query);
        this.onColumns = query.condition().filter(c -> c.columns().isPresent()).orElse(null);
    }

    boolean matches(LogRecord r) {
        return predicate.matches(r);
    }

    /**
     * The conditions on the whole row alone (body substring, a row condition that needs the whole row): what is left
     * after a prefilter.
     */
    boolean matchesWholeRow(LogRecord r) {
        return onColumns != null ? predicate.matchesText(r) : predicate.matchesWholeRow(r);
    }

    /** Whether {@link #matchesExceptText} decides every row: no condition needs the row decoded whole. */
    boolean decidedByColumns() {
        return predicate.decidedByColumns() || onColumns != null && query.bodyContains().isEmpty();
    }

    /**
     * Every condition but the body substring (and a row condition that needs the whole row); reads only
     * {@link #columnsExceptText}: what a reader decides before it decodes the rest of a row
     * ({@link dev.ourios.parquet.read.RowPrefilter}).
     */
    boolean matchesExceptText(LogRecord r) {
        return predicate.matchesExceptText(r) && (onColumns == null || onColumns.test(r));
    }

    /**
     * The columns {@link #matchesExceptText} reads for this query, with those of the tenant and partition checks:
     * the tenant, the row's time (effective, else recomputed from time and observed time), and the columns of the
     * conditions the query has (the service also from resource_attributes, for rows without the promoted column; a
     * row condition's own columns).
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
        if (onColumns != null) {
            columns.addAll(onColumns.columns().get());
        }
        return Set.copyOf(columns);
    }

    /** The columns the query's row condition reads beyond the fixed filters' (none without one). */
    Set<String> conditionColumns() {
        return onColumns != null ? onColumns.columns().get() : Set.of();
    }

    /**
     * Necessary conditions of {@link #matchesExceptText} on single columns, the most selective first, for a reader to
     * reject a row on one value before decoding it (see {@link ColumnTest}): the trace id equal (a row without one
     * never matches); the template id equal (null reads as 0); the promoted service equal or null (a null service
     * is derived from the resource attributes, which the matcher decides); the effective time in the window or null
     * (a null one is recomputed from the source columns; without a window the whole range but {@code Long.MAX_VALUE},
     * the window's exclusive end: column statistics prove that for nearly every row group, so it costs nothing to
     * read, and it makes the tests {@link #columnTestsDecide decide}); the severity at least the floor (null reads
     * as 0).
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
        if (from < to) {
            tests.add(new ColumnTest.LongRange(Columns.EFFECTIVE_TIME, from, to - 1, true));
        }
        if (query.severityMin().isPresent()) {
            int floor = query.severityMin().getAsInt();
            tests.add(new ColumnTest.LongRange(Columns.SEVERITY_NUMBER, floor, Long.MAX_VALUE, floor <= 0));
        }
        return List.copyOf(tests);
    }

    /**
     * Whether {@link #columnTests} are sufficient as well as necessary for {@link #matchesExceptText} on rows with a
     * value in each tested column: every condition has its test, and each test on a value says what the matcher says.
     * A template id, severity or effective time compares the stored number; a trace id the stored bytes; a service
     * the stored bytes with the service's UTF-8, which decodes back to the same string only when the service
     * survives a round trip through UTF-8 (no U+FFFD, no lone surrogate). A row condition decided on its columns
     * ({@link #matchesExceptText}) has no column test, so the tests never decide beside one.
     */
    boolean columnTestsDecide() {
        boolean service = query.service().map(s -> s.indexOf('\uFFFD') < 0
                && new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(s)).orElse(true);
        return onColumns == null && service && from < to;
    }
}
