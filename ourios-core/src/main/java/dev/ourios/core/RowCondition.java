package dev.ourios.core;

/**
 * A condition on whole rows beyond the fixed filters of a {@link RowSelection}, such as a compiled search
 * (docs/spec/query.md). It is decided on every row the pruning leaves, after the fixed filters, on the row decoded
 * whole; it prunes nothing by itself, so whoever builds one also sets the query's fixed filters its rows must
 * satisfy. Implementations are immutable and safe to call from several scan threads at once.
 */
public interface RowCondition {
    /** True for a row the filter keeps. */
    boolean test(LogRecord row);

    /** The filter's source text, as a user wrote it: what a deletion's record and audit event name. */
    String text();
}
