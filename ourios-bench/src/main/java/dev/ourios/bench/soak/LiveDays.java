package dev.ourios.bench.soak;

import dev.ourios.core.PartitionKey;
import dev.ourios.table.DayCovers;
import dev.ourios.table.DayPartition;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The store's live sets as a reader of day partitions resolves them (docs/spec/storage.md, "Rollup"), one UTC day
 * of one tenant at a time: the day partition's snapshot, and each hour's against the covers of that same day
 * manifest. A validly covered hour's live set is its late files; its rows are those of its hour in the day files.
 */
final class LiveDays {
    /**
     * One tenant-day.
     *
     * @param day   the day partition
     * @param files the day partition's snapshot (its live set is its manifest's files; empty without a rollup)
     * @param hours every hour partition of the day present, resolved against {@code files}' covers
     */
    record Day(DayPartition day, PartitionSnapshot files, Map<PartitionKey, PartitionSnapshot> hours) {
    }

    private final TableLayout layout;
    private final TableReader tables;

    LiveDays(TableLayout layout, TableReader tables) {
        this.layout = layout;
        this.tables = tables;
    }

    List<Day> read() throws IOException {
        Map<DayPartition, List<PartitionKey>> byDay = new TreeMap<>(
                java.util.Comparator.comparing(DayPartition::tenantId).thenComparing(DayPartition::date));
        for (PartitionKey p : layout.partitions(PartitionFilter.all())) {
            byDay.computeIfAbsent(DayPartition.of(p), d -> new ArrayList<>()).add(p);
        }
        List<Day> out = new ArrayList<>();
        for (Map.Entry<DayPartition, List<PartitionKey>> e : byDay.entrySet()) {
            // The covers come from the very manifest the day's snapshot resolved, so the two agree; the hours are
            // listed after it, as a reader lists them.
            PartitionSnapshot day = tables.daySnapshot(e.getKey());
            DayCovers covers = new DayCovers(e.getKey(), day.currentManifest(), day.manifest());
            out.add(new Day(e.getKey(), day, tables.hourSnapshots(e.getValue(), covers)));
        }
        return out;
    }
}
