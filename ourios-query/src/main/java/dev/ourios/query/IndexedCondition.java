package dev.ourios.query;

import dev.ourios.core.RowCondition;
import dev.ourios.parquet.index.IndexCondition;

/**
 * A row condition that also says what it requires of the files' token index (docs/spec/storage.md, "Token index"):
 * every row it keeps satisfies {@link #indexCondition()}, so a row group whose index rules that out is not read. A
 * plain {@link RowCondition} prunes nothing.
 */
public interface IndexedCondition extends RowCondition {
    /** The condition on the token index's keys; {@link IndexCondition#ANY} when the index cannot decide it. */
    IndexCondition indexCondition();
}
