package dev.ourios.query;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.DayPartition;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The live file set of a tenant over a window ({@code ourios files}): exactly the files a query would read, so
 * another engine (DuckDB, Spark, Trino) given these paths sees the same rows, never a retired input or an
 * uncommitted compaction output. Partitions are listed by the same hour-overlap rule as queries.
 */
public final class LiveFiles {
    /** One live file: its partition, store key, full location ({@code ObjectStore.describe}) and size. */
    public record LiveFile(PartitionKey partition, String key, String path, long size) {
    }

    private final ObjectStore store;
    private final TableLayout layout;
    private final TableReader tables;

    public LiveFiles(ObjectStore store, TableLayout layout, TableReader tables) {
        this.store = Objects.requireNonNull(store, "store");
        this.layout = Objects.requireNonNull(layout, "layout");
        this.tables = Objects.requireNonNull(tables, "tables");
    }

    /**
     * Live files of the tenant's partitions overlapping {@code [from, to)}, oldest partition first, keys sorted. A day
     * partition's files (storage.md 4.15) are listed once, with the first hour of the window they validly cover, as
     * another engine reads every row of a file: the hours they cover and nothing else.
     *
     * @throws DeadRowsException if a day file listed holds rows of an hour it no longer validly covers (another
     *                           engine would read them beside the hour's own files); the next rollup drops them
     */
    public List<LiveFile> list(String tenant, Optional<Instant> from, Optional<Instant> to) throws IOException {
        return list(tenant, from, to, true);
    }

    /**
     * As {@link #list(String, Optional, Optional)}; {@code refuseDeadRows} false lists a day holding rows of a void
     * cover too, for a caller that counts files rather than hands them to another engine (the store page).
     */
    public List<LiveFile> list(String tenant, Optional<Instant> from, Optional<Instant> to, boolean refuseDeadRows)
            throws IOException {
        List<LiveFile> out = new ArrayList<>();
        java.util.Set<String> listedDayFiles = new java.util.HashSet<>();
        java.util.Map<DayPartition, PartitionSnapshot> days = new java.util.HashMap<>();
        for (PartitionKey p : layout.partitions(new PartitionFilter(Optional.of(Set.of(tenant)), from, to))) {
            DayPartition day = DayPartition.of(p);
            PartitionSnapshot daySnapshot = days.get(day);
            if (daySnapshot == null) {
                // One generation of each day for the whole list, checked once for rows another engine must not see.
                daySnapshot = tables.daySnapshot(day);
                if (refuseDeadRows) {
                    DeadRowsException.check(tables, day, HourFiles.covers(day, daySnapshot));
                }
                days.put(day, daySnapshot);
            }
            HourFiles files = HourFiles.resolve(tables, p, daySnapshot);
            for (ObjectInfo o : files.files()) {
                if (!HourFiles.isDayFile(o.key()) || listedDayFiles.add(o.key())) {
                    out.add(new LiveFile(p, o.key(), store.describe(o.key()), o.size()));
                }
            }
        }
        return out;
    }

    /** Just the full paths, one per live file (the CLI's output lines). */
    public List<String> paths(String tenant, Optional<Instant> from, Optional<Instant> to) throws IOException {
        return list(tenant, from, to).stream().map(LiveFile::path).toList();
    }
}
