package dev.ourios.table;

import dev.ourios.core.PartitionKey;
import java.io.IOException;

/**
 * Whether the commit that created a manifest has its audit event recorded (STORAGE.md §4.2 step 6, §5). GC keeps a
 * superseded manifest while the answer is no, so the sweep that re-emits a lost event still finds the commit
 * record it is made from.
 */
@FunctionalInterface
public interface CommitAudit {
    /** Every commit counts as audited: GC holds no manifest back (a table without an audit stream). */
    CommitAudit NONE = (partition, manifest) -> true;

    /**
     * True when {@code manifest}'s commit has nothing to audit (no complete commit record) or its event is recorded.
     *
     * @throws IOException if that cannot be known; GC then keeps the manifest
     */
    boolean recorded(PartitionKey partition, Manifest manifest) throws IOException;

    /**
     * As {@link #recorded} for a day partition's manifest (STORAGE.md §4.15), whose commit's event is the day's
     * ({@code day.label()} names it); by default asked as an hour's.
     */
    default boolean recordedDay(DayPartition day, Manifest manifest) throws IOException {
        return recorded(day.label(), manifest);
    }
}
