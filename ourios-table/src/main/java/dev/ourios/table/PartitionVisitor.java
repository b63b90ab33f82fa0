package dev.ourios.table;

import dev.ourios.core.PartitionKey;
import java.io.IOException;

/** Receives partitions from {@link TableLayout#forEachPartition} in sorted order. */
@FunctionalInterface
public interface PartitionVisitor {
    void visit(PartitionKey partition) throws IOException;
}
