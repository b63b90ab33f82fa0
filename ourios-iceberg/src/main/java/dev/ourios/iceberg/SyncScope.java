package dev.ourios.iceberg;

import dev.ourios.core.PartitionKey;
import dev.ourios.table.DayPartition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which partitions one sync brings in line: every partition of the store (a full reconciliation, which lists them
 * all), or only the named ones (what a caller knows changed, such as the partitions a sweep committed). A partition
 * outside a partial scope keeps what the view holds for it, so a partial sync's reads and writes follow the
 * partitions it names, not the store.
 *
 * @param partitions the partitions to sync, or empty for every partition
 */
public record SyncScope(Optional<SortedSet<PartitionKey>> partitions) {
    private static final SyncScope ALL = new SyncScope(Optional.empty());

    public SyncScope {
        partitions = partitions.map(p -> Collections.unmodifiableSortedSet(new TreeSet<>(p)));
    }

    /** Every partition of the store. */
    public static SyncScope all() {
        return ALL;
    }

    /** Only these partitions (none: the sync reads no partition and commits nothing). */
    public static SyncScope of(Collection<PartitionKey> partitions) {
        return new SyncScope(Optional.of(new TreeSet<>(partitions)));
    }

    /**
     * The days of {@code partitions}, in tenant then date order. A sync resolves a day whole (its day partition and
     * its 24 hours, storage.md section 10), so any hour of a day stands for the day.
     */
    public static List<DayPartition> days(Collection<PartitionKey> partitions) {
        SortedMap<String, DayPartition> days = new TreeMap<>();
        partitions.forEach(p -> {
            DayPartition d = DayPartition.of(p);
            days.putIfAbsent(d.dayPrefix(), d);
        });
        return List.copyOf(days.values());
    }

    public boolean isFull() {
        return partitions.isEmpty();
    }
}
