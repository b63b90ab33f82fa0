package dev.ourios.compaction;

/**
 * How a {@link SortedRewriter} compares the rows it wrote with the rows it read before it publishes the output.
 */
public enum RowVerification {
    /**
     * Both sides hashed ({@code RowChecksum}): a row lost, repeated or altered anywhere between the readers and the
     * writer refuses the output. What every sweep and deletion the wiring builds runs with.
     */
    CHECKSUMS,
    /**
     * Rows counted, not hashed: a lost or repeated row is still refused, an altered one is not. Cheaper by exactly
     * the hashing, which is what it is for: measuring what {@link #CHECKSUMS} costs. {@link CompactionWiring} never
     * builds a rewriter with it, so no sweep or deletion commits a rewrite verified by counts alone.
     */
    ROW_COUNTS
}
