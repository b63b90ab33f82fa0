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

    /**
     * The top-level columns {@link #test} reads ({@link Columns} names), when it reads only those: a reader may then
     * decide a row on them before decoding the rest of it, handing {@link #test} a record whose other columns read as
     * absent. Empty (the default): the condition needs the row decoded whole.
     */
    default java.util.Optional<java.util.Set<String>> columns() {
        return java.util.Optional.empty();
    }
}
