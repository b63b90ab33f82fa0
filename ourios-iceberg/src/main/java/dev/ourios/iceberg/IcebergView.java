package dev.ourios.iceberg;

import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.iceberg.BaseTable;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.ManifestFileUtil;
import org.apache.iceberg.util.PartitionSet;

/**
 * The store's Iceberg view as a table: opened by path from the store, never through a catalog service. Reads
 * which data files the current snapshot, or any retained snapshot, references.
 */
public final class IcebergView {
    /** The name the table carries inside Iceberg (path-based tables have no catalog name). */
    public static final String NAME = "logs";

    private final ObjectStore store;
    private final StoreLocation location;
    private final ViewLayout layout;

    public IcebergView(ObjectStore store, StoreLocation location, ViewLayout layout) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.location = Objects.requireNonNull(location, "location is null");
        this.layout = Objects.requireNonNull(layout, "layout is null");
    }

    public StoreLocation location() {
        return location;
    }

    public ViewLayout layout() {
        return layout;
    }

    /** Fresh table operations (each sync attempt starts from what the store holds when it reads). */
    public StoreTableOperations operations() {
        return new StoreTableOperations(store, location, layout);
    }

    /** The table, or empty when no version exists yet. */
    public Optional<Table> table() {
        StoreTableOperations ops = operations();
        return ops.current() == null ? Optional.empty() : Optional.of(new BaseTable(ops, NAME));
    }

    /** The table location other engines load ({@code <store>/iceberg/logs}). */
    public String tableUri() {
        String uri = location.uri(layout.tablePrefix());
        return uri.substring(0, uri.length() - 1);
    }

    /** The current snapshot's data files, by store key. */
    public static SortedMap<String, DataFile> currentFiles(Table table, StoreLocation location) {
        return currentFiles(table, location, SyncScope.all());
    }

    /**
     * The current snapshot's data files of the partitions in {@code scope}, by store key. A partial scope reads
     * only the manifests whose partition ranges (the manifest list's summaries) can hold one of its partitions.
     */
    public static SortedMap<String, DataFile> currentFiles(Table table, StoreLocation location, SyncScope scope) {
        SortedMap<String, DataFile> out = new TreeMap<>();
        forEachCurrent(table, scope, Snapshot::dataManifests, (m, specs) -> ManifestFiles.read(m, table.io(), specs),
                f -> out.put(location.key(f.location()), f.copyWithoutStats()));
        return out;
    }

    /**
     * The current snapshot's delete files (the position deletes hiding the dead rows of day files, storage.md
     * section 10) of the partitions in {@code scope}, by the store key of the data file each one refers to.
     */
    public static SortedMap<String, DeleteFile> currentDeletes(Table table, StoreLocation location, ViewLayout layout,
            SyncScope scope) {
        SortedMap<String, DeleteFile> out = new TreeMap<>();
        forEachCurrent(table, scope, Snapshot::deleteManifests,
                (m, specs) -> ManifestFiles.readDeleteManifest(m, table.io(), specs), f -> {
                    String data = DeadRowDeletes.dataKey(layout, location, f)
                            .orElseThrow(() -> new IllegalStateException("the Iceberg view holds a delete file "
                                    + f.location() + " that no sync wrote; engines must not write to the view"));
                    out.put(data, f.copyWithoutStats());
                });
        return out;
    }

    /** Opens one manifest of a snapshot for its entries. */
    @FunctionalInterface
    private interface ManifestOpener<F extends ContentFile<F>> {
        ManifestReader<F> open(ManifestFile manifest, Map<Integer, PartitionSpec> specs);
    }

    /**
     * Gives {@code each} every entry of the current snapshot's manifests ({@code manifests}: its data or its delete
     * manifests) in the partitions of {@code scope}; a partial scope reads only the manifests whose partition
     * ranges (the manifest list's summaries) can hold one of its partitions.
     */
    private static <F extends ContentFile<F>> void forEachCurrent(Table table, SyncScope scope,
            BiFunction<Snapshot, FileIO, List<ManifestFile>> manifests, ManifestOpener<F> opener, Consumer<F> each) {
        Snapshot current = table.currentSnapshot();
        if (current == null) {
            return;
        }
        Optional<PartitionSet> wanted = scope.partitions()
                .map(ps -> ViewPartitions.set(table.specs(), table.spec(), ps));
        for (ManifestFile m : manifests.apply(current, table.io())) {
            if (wanted.isPresent() && !ManifestFileUtil.canContainAny(m, wanted.get(), table.specs())) {
                continue;
            }
            try (ManifestReader<F> r = opener.open(m, table.specs())) {
                for (F f : r) {
                    if (wanted.isEmpty() || wanted.get().contains(f.specId(), f.partition())) {
                        each.accept(f);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not read Iceberg manifest " + m.path() + ": " + e.getMessage(), e);
            }
        }
    }

    /** Store keys of every data file any snapshot of the table references. */
    public static Set<String> referencedKeys(Table table, StoreLocation location) {
        Set<String> manifests = new HashSet<>();
        Set<String> out = new HashSet<>();
        for (Snapshot s : table.snapshots()) {
            for (ManifestFile m : s.dataManifests(table.io())) {
                if (!manifests.add(m.path())) {
                    continue; // shared between snapshots: read once
                }
                try (ManifestReader<DataFile> r = ManifestFiles.read(m, table.io(), table.specs())) {
                    for (DataFile f : r) {
                        out.add(location.key(f.location()));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("could not read Iceberg manifest " + m.path() + ": "
                            + e.getMessage(), e);
                }
            }
        }
        return out;
    }
}
