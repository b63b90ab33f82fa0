package dev.ourios.table;

import java.io.IOException;

/** Receives the day partitions (STORAGE.md §4.15) {@link TableLayout#forEachPartition} meets. */
@FunctionalInterface
public interface DayVisitor {
    void visit(DayPartition day) throws IOException;
}
