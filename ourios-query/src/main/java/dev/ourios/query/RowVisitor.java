package dev.ourios.query;

import dev.ourios.core.LogRecord;

/**
 * Receives the matching rows of a {@link QueryEngine#visit} one at a time, decoded whole, in no particular order.
 * One visitor serves one scan thread, so it needs no locking; the engine hands the visitors back to be merged.
 */
@FunctionalInterface
public interface RowVisitor {
    /** Takes one matching row; false stops the visit (no further row is read). */
    boolean visit(LogRecord row);
}
