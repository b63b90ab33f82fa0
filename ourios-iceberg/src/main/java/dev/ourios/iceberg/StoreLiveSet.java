package dev.ourios.iceberg;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
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
 * reads. One listing per partition, so each partition's set is consistent on its own.
 */
public final class StoreLiveSet {
    /** A live file and its partition. */
    public record LiveFile(PartitionKey partition, ObjectInfo object) {
    }

    private final TableLayout layout;
    private final TableReader reader;

    public StoreLiveSet(TableLayout layout, TableReader reader) {
        this.layout = Objects.requireNonNull(layout, "layout is null");
        this.reader = Objects.requireNonNull(reader, "reader is null");
    }

    /**
     * Every live file, keyed by store key.
     *
     * @throws dev.ourios.table.ManifestException if a partition's manifest is invalid: the view is not synced
     *     past data it cannot read correctly
     */
    public SortedMap<String, LiveFile> files() throws IOException {
        SortedMap<String, LiveFile> out = new TreeMap<>();
        layout.forEachPartition(PartitionFilter.all(), p -> {
            PartitionSnapshot s = reader.snapshot(p);
            for (ObjectInfo o : s.live()) {
                out.put(o.key(), new LiveFile(p, o));
            }
        });
        return Collections.unmodifiableSortedMap(out);
    }
}
