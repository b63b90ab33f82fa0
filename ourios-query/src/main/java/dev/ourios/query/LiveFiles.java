package dev.ourios.query;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
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

    /** Live files of the tenant's partitions overlapping {@code [from, to)}, oldest partition first, keys sorted. */
    public List<LiveFile> list(String tenant, Optional<Instant> from, Optional<Instant> to) throws IOException {
        List<LiveFile> out = new ArrayList<>();
        for (PartitionKey p : layout.partitions(new PartitionFilter(Optional.of(Set.of(tenant)), from, to))) {
            for (ObjectInfo o : tables.snapshot(p).live()) {
                out.add(new LiveFile(p, o.key(), store.describe(o.key()), o.size()));
            }
        }
        return out;
    }

    /** Just the full paths, one per live file (the CLI's output lines). */
    public List<String> paths(String tenant, Optional<Instant> from, Optional<Instant> to) throws IOException {
        return list(tenant, from, to).stream().map(LiveFile::path).toList();
    }
}
