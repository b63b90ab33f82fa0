package dev.ourios.iceberg;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.PartitionVisitor;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The store's live set, the truth the view mirrors: for every partition, the files one listing and its current
 * manifest make live (one generation's files plus the ingest files that landed beside it), exactly what a query
 * reads. One listing per partition, so each partition's set is consistent on its own; a partial scope resolves only
 * the partitions it names.
 */
public final class StoreLiveSet {
    /** A live file and its partition. */
    public record LiveFile(PartitionKey partition, ObjectInfo object) {
    }

    /**
     * The live files of the partitions one scope covers.
     *
     * @param files      live files by store key
     * @param partitions the partitions resolved (one listing and at most one manifest read each)
     */
    public record Resolved(SortedMap<String, LiveFile> files, int partitions) {
        public Resolved {
            files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
        }
    }

    private final TableLayout layout;
    private final TableReader reader;

    public StoreLiveSet(TableLayout layout, TableReader reader) {
        this.layout = Objects.requireNonNull(layout, "layout is null");
        this.reader = Objects.requireNonNull(reader, "reader is null");
    }

    /** Every live file, keyed by store key. */
    public SortedMap<String, LiveFile> files() throws IOException {
        return resolve(SyncScope.all()).files();
    }

    /**
     * The live files of the partitions in {@code scope}, keyed by store key: every partition the layout walk finds
     * for a full scope, else one listing and one manifest read per named partition and nothing else (a named
     * partition without a directory has no live file).
     *
     * @throws dev.ourios.table.ManifestException if a partition's manifest is invalid: the view is not synced
     *     past data it cannot read correctly
     */
    public Resolved resolve(SyncScope scope) throws IOException {
        SortedMap<String, LiveFile> out = new TreeMap<>();
        int[] partitions = {0};
        PartitionVisitor resolve = p -> {
            partitions[0]++;
            PartitionSnapshot s = reader.snapshot(p);
            for (ObjectInfo o : s.live()) {
                out.put(o.key(), new LiveFile(p, o));
            }
        };
        if (scope.partitions().isEmpty()) {
            layout.forEachPartition(PartitionFilter.all(), resolve);
        } else {
            for (PartitionKey p : scope.partitions().get()) {
                resolve.visit(p);
            }
        }
        return new Resolved(out, partitions[0]);
    }
}
