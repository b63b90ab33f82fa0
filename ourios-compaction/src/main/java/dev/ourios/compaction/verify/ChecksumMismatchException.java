package dev.ourios.compaction.verify;

import dev.ourios.core.PartitionKey;
import java.io.IOException;

/** The rows written differ from the rows read: the output was discarded and nothing committed. */
public class ChecksumMismatchException extends IOException {
    private static final long serialVersionUID = 1L;

    public ChecksumMismatchException(PartitionKey partition, String read, String written) {
        super(partition + ": checksum of rows written (" + written + ") differs from rows read (" + read
                + "); output discarded, nothing committed");
    }
}
