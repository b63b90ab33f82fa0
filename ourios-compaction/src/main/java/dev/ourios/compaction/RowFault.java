package dev.ourios.compaction;

import dev.ourios.core.LogRecord;
import java.util.List;

/**
 * A test point of the rewrite: replaces sorted output rows before they are checksummed and written, so a test in
 * this package can drop, repeat or alter rows between the sorter and the output writer and prove the checksum
 * comparison refuses the commit. Only a test hands one to the wiring ({@link CompactionWiring}); every product path
 * runs without.
 */
@FunctionalInterface
interface RowFault {
    /** The rows to write in place of row number {@code ordinal} of the sorted output. */
    List<LogRecord> apply(long ordinal, LogRecord r);
}
