package dev.ourios.ingest.flush;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import java.util.List;

/**
 * Told the rows of every ingest file a flush publishes, once it is in the store (durable and readable by queries):
 * what a live tail follows. Called on the flush thread, so an implementation hands the rows on and returns at once.
 */
@FunctionalInterface
public interface LandedRows {
    LandedRows NONE = (partition, rows) -> { };

    /** The rows of one newly published file of {@code partition}, in the file's order. */
    void landed(PartitionKey partition, List<LogRecord> rows);
}
