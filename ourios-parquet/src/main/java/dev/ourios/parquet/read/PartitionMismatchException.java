package dev.ourios.parquet.read;

import dev.ourios.core.PartitionKey;
import java.io.IOException;

/**
 * A row read through a partition-aware open does not belong to the partition its path claims (STORAGE.md §2,
 * row-vs-path validation). The row is authoritative; the path is only a pruning index, so this is a hard error.
 */
public class PartitionMismatchException extends IOException {
    private static final long serialVersionUID = 1L;
    private final String file;
    private final long rowIndex;
    private final transient PartitionKey expected;
    private final transient PartitionKey actual;

    public PartitionMismatchException(String file, long rowIndex, PartitionKey expected, PartitionKey actual) {
        super(file + ": row " + rowIndex + " belongs to " + actual + " but the file is in " + expected);
        this.file = file;
        this.rowIndex = rowIndex;
        this.expected = expected;
        this.actual = actual;
    }

    public String file() {
        return file;
    }

    public long rowIndex() {
        return rowIndex;
    }

    public PartitionKey expected() {
        return expected;
    }

    public PartitionKey actual() {
        return actual;
    }
}
