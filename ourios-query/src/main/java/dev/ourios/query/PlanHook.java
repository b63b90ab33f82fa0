package dev.ourios.query;

import dev.ourios.table.PartitionSnapshot;
import java.io.IOException;

/**
 * Called after a partition's live set is resolved and before its files are opened. Production passes
 * {@link #NONE}; tests use it to change the store in exactly that gap (a compaction commit and GC deleting a
 * planned file), which is otherwise a race no test could hit reliably.
 */
@FunctionalInterface
interface PlanHook {
    PlanHook NONE = (snapshot, attempt) -> { };

    void planned(PartitionSnapshot snapshot, int attempt) throws IOException;
}
