package dev.ourios.compaction;

import dev.ourios.core.LogRecord;
import java.util.List;

/**
 * A test-only fault injection seam between the sorter and the output writer: production uses {@link #NONE}.
 * Tests drop, duplicate or alter rows here to prove the checksum verification refuses such a commit.
 */
@FunctionalInterface
public interface OutputFault {
    OutputFault NONE = (ordinal, r) -> List.of(r);

    /** The rows to write in place of row number {@code ordinal} of the sorted output. */
    List<LogRecord> apply(long ordinal, LogRecord r);
}
