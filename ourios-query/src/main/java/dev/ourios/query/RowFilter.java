package dev.ourios.query;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.index.IndexCondition;

/**
 * A condition on whole rows beyond the fixed filters of a {@link Query}, such as a compiled search
 * (docs/spec/query.md). It is decided on every row the pruning leaves, after the fixed filters, on the row decoded
 * whole; it prunes nothing by itself, so whoever builds one also sets the query's fixed filters its rows must
 * satisfy. Implementations are immutable and safe to call from several scan threads at once.
 */
public interface RowFilter {
    /** True for a row the filter keeps. */
    boolean test(LogRecord row);

    /** The filter's source text, as a user wrote it: what a deletion's record and audit event name. */
    String text();

    /**
     * A condition every row the filter keeps satisfies, on the keys of the files' token index (docs/spec/storage.md,
     * "Token index"): the row groups whose index rules it out are not read. {@link IndexCondition#ANY} (the default)
     * when the filter says nothing the index can decide.
     */
    default IndexCondition indexCondition() {
        return IndexCondition.ANY;
    }
}
