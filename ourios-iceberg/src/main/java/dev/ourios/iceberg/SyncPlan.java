package dev.ourios.iceberg;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;

/**
 * What one sync changes, decided without I/O from the store's live set and the view's current files: the live
 * files the view lacks are added, the view's files that are no longer live are removed, and each day file whose dead
 * hours differ from those its current delete hides gets a new delete (storage.md section 10), in one snapshot. Only
 * the added files' footers, and the rows of the day files given a new delete, are read afterwards, so a sync's work
 * follows the partitions that changed.
 *
 * @param add                live files the view does not reference, sorted by key
 * @param remove             referenced files no longer live, sorted by path
 * @param changedPartitions  the directories of partitions with a file or a delete added or removed
 * @param writeDeletes       live day files with dead rows whose delete is missing or hides other hours, by key
 * @param removeDeletes      current deletes of files no longer live, or hiding other hours than their file's dead
 *                           ones
 */
public record SyncPlan(List<StoreLiveSet.LiveFile> add, List<DataFile> remove, Set<String> changedPartitions,
        List<StoreLiveSet.LiveFile> writeDeletes, List<DeleteFile> removeDeletes) {
    public SyncPlan {
        add = List.copyOf(add);
        remove = List.copyOf(remove);
        changedPartitions = Collections.unmodifiableSet(new TreeSet<>(changedPartitions));
        writeDeletes = List.copyOf(writeDeletes);
        removeDeletes = List.copyOf(removeDeletes);
    }

    /**
     * @param live    the store's live files by key
     * @param current the view's current data files by store key
     */
    public static SyncPlan of(SortedMap<String, StoreLiveSet.LiveFile> live, SortedMap<String, DataFile> current) {
        return of(live, current, new TreeMap<>());
    }

    /**
     * @param live     the store's live files by key
     * @param current  the view's current data files by store key
     * @param deletes  the view's current delete files, by the store key of the data file each refers to
     */
    public static SyncPlan of(SortedMap<String, StoreLiveSet.LiveFile> live, SortedMap<String, DataFile> current,
            SortedMap<String, DeleteFile> deletes) {
        List<StoreLiveSet.LiveFile> add = new ArrayList<>();
        List<DataFile> remove = new ArrayList<>();
        List<StoreLiveSet.LiveFile> writeDeletes = new ArrayList<>();
        List<DeleteFile> removeDeletes = new ArrayList<>();
        Set<String> changed = new TreeSet<>();
        live.forEach((key, f) -> {
            if (!current.containsKey(key)) {
                add.add(f);
                changed.add(directory(key));
            }
            DeleteFile held = deletes.get(key);
            int hidden = held == null ? 0 : DeadRowDeletes.deadHours(held);
            if (hidden != f.deadHours()) {
                if (held != null) {
                    removeDeletes.add(held);
                }
                if (f.deadHours() != 0) {
                    writeDeletes.add(f);
                }
                changed.add(directory(key));
            }
        });
        current.forEach((key, f) -> {
            if (!live.containsKey(key)) {
                remove.add(f);
                changed.add(directory(key));
            }
        });
        for (Map.Entry<String, DeleteFile> e : deletes.entrySet()) {
            if (!live.containsKey(e.getKey())) {
                removeDeletes.add(e.getValue());
                changed.add(directory(e.getKey()));
            }
        }
        return new SyncPlan(add, remove, changed, writeDeletes, removeDeletes);
    }

    /** A partition's directory (its data prefix without the trailing '/'), from one of its files' keys. */
    private static String directory(String key) {
        return key.substring(0, Math.max(0, key.lastIndexOf('/')));
    }

    /** True when the plan adds or removes a delete file, so the commit is a row delta. */
    public boolean changesDeletes() {
        return !writeDeletes.isEmpty() || !removeDeletes.isEmpty();
    }

    public boolean isEmpty() {
        return add.isEmpty() && remove.isEmpty() && !changesDeletes();
    }
}
