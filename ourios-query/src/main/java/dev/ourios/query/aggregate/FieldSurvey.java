package dev.ourios.query.aggregate;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.QueryStats;
import dev.ourios.query.RowVisitor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * What fields the rows of a query carry and which values they take: the attribute and resource keys seen (as
 * {@code attributes.<key>} and {@code resource.<key>}, with the rows holding each) and the most frequent values of
 * one field. Bounded: at most {@code maxRows} rows are read and at most {@link #MAX_TRACKED} distinct keys or values
 * are counted; an answer that hit either bound is {@code partial}.
 */
public final class FieldSurvey {
    /** Distinct keys or values counted at most. */
    public static final int MAX_TRACKED = 10_000;

    private final QueryEngine engine;

    public FieldSurvey(QueryEngine engine) {
        this.engine = Objects.requireNonNull(engine, "engine");
    }

    /** A key or value and the rows that hold it. */
    public record Count(String name, long rows) {
    }

    /**
     * The answer: the most frequent first (ties by name), at most the limit asked.
     *
     * @param rowsScanned the matching rows read
     * @param partial     a bound stopped the survey: more rows or more distinct names exist than were counted
     */
    public record Survey(List<Count> counts, long rowsScanned, boolean partial, QueryStats stats) {
    }

    /** The attribute and resource keys of the query's rows, the {@code limit} most frequent. */
    public Survey keys(Query q, int limit, long maxRows) throws IOException {
        return survey(q, Set.of(Columns.ATTRIBUTES, Columns.RESOURCE_ATTRIBUTES), limit, maxRows, row -> {
            Set<String> keys = new HashSet<>();
            for (KeyValue kv : AttributesJson.decode(row.attributes())) {
                keys.add("attributes." + kv.key());
            }
            for (KeyValue kv : AttributesJson.decode(row.resourceAttributes())) {
                keys.add("resource." + kv.key());
            }
            return keys;
        });
    }

    /** The {@code limit} most frequent values of {@code field} among the query's rows (rows without it not counted). */
    public Survey values(Query q, GroupField field, int limit, long maxRows) throws IOException {
        return survey(q, field.columns(), limit, maxRows, row -> {
            String v = field.valueOf(row);
            return v == null ? Set.of() : Set.of(v);
        });
    }

    private Survey survey(Query q, Set<String> columns, int limit, long maxRows,
            Function<LogRecord, Set<String>> names)
            throws IOException {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1 (got " + limit + ")");
        }
        if (maxRows < 1) {
            throw new IllegalArgumentException("max rows must be at least 1 (got " + maxRows + ")");
        }
        AtomicLong read = new AtomicLong();
        Tally total = new Tally(names, read, maxRows);
        QueryStats stats = engine.visit(q, java.util.Optional.of(columns),
                () -> new Tally(names, read, maxRows), total::merge);
        List<Count> counts = new ArrayList<>();
        total.counts.forEach((k, v) -> counts.add(new Count(k, v[0])));
        counts.sort(Comparator.comparingLong(Count::rows).reversed().thenComparing(Count::name));
        boolean partial = total.overflow || read.get() >= maxRows && stats.rows() >= maxRows;
        return new Survey(List.copyOf(counts.subList(0, Math.min(limit, counts.size()))), stats.rows(), partial,
                stats);
    }

    /** Counts names per row; one per scan thread, then the merged total. */
    private static final class Tally implements RowVisitor {
        private final Function<LogRecord, Set<String>> names;
        private final AtomicLong read;
        private final long maxRows;
        final Map<String, long[]> counts = new HashMap<>();
        boolean overflow;

        Tally(Function<LogRecord, Set<String>> names, AtomicLong read, long maxRows) {
            this.names = names;
            this.read = read;
            this.maxRows = maxRows;
        }

        @Override
        public boolean visit(LogRecord row) {
            for (String n : names.apply(row)) {
                add(n, 1);
            }
            return read.incrementAndGet() < maxRows;
        }

        private void add(String name, long n) {
            long[] c = counts.get(name);
            if (c == null) {
                if (counts.size() >= MAX_TRACKED) {
                    overflow = true;
                    return;
                }
                c = new long[1];
                counts.put(name, c);
            }
            c[0] += n;
        }

        void merge(Tally t) {
            overflow |= t.overflow;
            t.counts.forEach((k, v) -> add(k, v[0]));
        }
    }
}
