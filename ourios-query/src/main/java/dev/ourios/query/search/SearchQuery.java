package dev.ourios.query.search;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.index.IndexCondition;
import dev.ourios.query.Query;
import dev.ourios.query.IndexedCondition;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A parsed and compiled search query (docs/spec/query.md): the one predicate that decides which rows a query
 * returns, counts and deletes, with the fixed filters the engine prunes by.
 *
 * <pre>{@code
 * SearchQuery s = SearchQuery.parse("service:cart severity:>=warn attributes.http.response.status_code:>=500");
 * Query q = s.applyTo(Query.tenant("acme").window(from, to));   // then QueryEngine.run / count, DeletionRequest
 * }</pre>
 *
 * <p>Immutable and safe to share between threads. Two searches are equal when their texts are.
 */
public final class SearchQuery implements IndexedCondition {
    private final String text;
    private final Expr expression;
    private final Compiler.RowTest test;
    private final SearchHints hints;
    private final IndexCondition indexCondition;
    private final Set<String> columns;

    private SearchQuery(String text, Expr expression, Compiler.RowTest test, SearchHints hints) {
        this.text = text;
        this.expression = expression;
        this.test = test;
        this.hints = hints;
        this.indexCondition = IndexTerms.of(expression);
        this.columns = TermColumns.of(expression);
    }

    /** Parses {@code text} within the default limits; a query that is not valid throws with its column. */
    public static SearchQuery parse(String text) throws QuerySyntaxException {
        return parse(text, SearchLimits.DEFAULT);
    }

    /** Parses {@code text} within {@code limits}. */
    public static SearchQuery parse(String text, SearchLimits limits) throws QuerySyntaxException {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(limits, "limits");
        Expr expression = new Parser(text, limits).parse();
        return new SearchQuery(text, expression, new Compiler(limits).compile(expression), SearchHints.of(expression));
    }

    /** The query as written. */
    @Override
    public String text() {
        return text;
    }

    /** The parsed expression. */
    public Expr expression() {
        return expression;
    }

    /** The fixed filters every matching row satisfies (what the engine prunes with). */
    public SearchHints hints() {
        return hints;
    }

    /** What every matching row holds of the token index's keys (docs/spec/query.md, "The token index"). */
    @Override
    public IndexCondition indexCondition() {
        return indexCondition;
    }

    /** The columns the search reads of a row: a reader decides it on those before decoding the rest. */
    @Override
    public Optional<Set<String>> columns() {
        return Optional.of(columns);
    }

    /** Whether {@code row} matches: the exact predicate, on the row decoded whole or on {@link #columns()}. */
    @Override
    public boolean test(LogRecord row) {
        return test.test(new SearchRow(row));
    }

    /**
     * {@code base} narrowed to the rows this search matches: its fixed filters gain the search's hints (a filter
     * {@code base} already has stays; the search still decides every row), and the search becomes its row filter
     * unless the hints are the whole search. A query then returns, counts and deletes exactly the rows that satisfy
     * both {@code base} and the search.
     *
     * @throws IllegalArgumentException if {@code base} already has a row filter
     */
    public Query applyTo(Query base) {
        if (base.condition().isPresent()) {
            throw new IllegalArgumentException("the query already has a row condition: " + base.condition().get().text());
        }
        Query q = base;
        if (hints.service().isPresent() && q.service().isEmpty()) {
            q = q.service(hints.service().get());
        }
        if (hints.severityMin().isPresent()) {
            int min = hints.severityMin().getAsInt();
            if (q.severityMin().isEmpty() || q.severityMin().getAsInt() < min) {
                q = q.severityMin(min);
            }
        }
        if (hints.traceId().isPresent() && q.traceId().isEmpty()) {
            q = q.traceId(hints.traceId().get());
        }
        if (hints.templateId().isPresent() && q.templateId().isEmpty()) {
            q = q.templateId(hints.templateId().getAsLong());
        }
        if (hints.exact() && fixedFiltersHold(base, q)) {
            return q;
        }
        return q.condition(this);
    }

    /**
     * Whether every hint landed in {@code q} as the search states it: a filter {@code base} already had with another
     * value means the search's own condition is not among the fixed filters, so it must still decide rows.
     */
    private boolean fixedFiltersHold(Query base, Query q) {
        return hints.service().map(s -> q.service().get().equals(s)).orElse(true)
                && (hints.severityMin().isEmpty() || q.severityMin().getAsInt() == hints.severityMin().getAsInt()
                        || base.severityMin().isPresent() && base.severityMin().getAsInt() >= hints.severityMin()
                                .getAsInt())
                && hints.traceId().map(t -> Arrays.equals(q.traceId().get(), t)).orElse(true)
                && (hints.templateId().isEmpty() || q.templateId().getAsLong() == hints.templateId().getAsLong());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SearchQuery s && s.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return "SearchQuery[" + text + "]";
    }
}
