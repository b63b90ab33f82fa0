package dev.ourios.iceberg;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;

/**
 * What one sync changes, decided without I/O from the store's live set and the view's current files: the live
 * files the view lacks are added, the view's files that are no longer live are removed, in one snapshot. Only the
 * added files' footers are read afterwards, so a sync's work follows the partitions that changed.
 *
 * @param add                live files the view does not reference, sorted by key
 * @param remove             referenced files no longer live, sorted by path
 * @param changedPartitions  the directories of partitions with a file added or removed
 */
public record SyncPlan(List<StoreLiveSet.LiveFile> add, List<DataFile> remove, Set<String> changedPartitions) {
    public SyncPlan {
        add = List.copyOf(add);
        remove = List.copyOf(remove);
        changedPartitions = Collections.unmodifiableSet(new TreeSet<>(changedPartitions));
    }

    /**
     * @param live    the store's live files by key
     * @param current the view's current data files by store key
     */
    public static SyncPlan of(SortedMap<String, StoreLiveSet.LiveFile> live, SortedMap<String, DataFile> current) {
        List<StoreLiveSet.LiveFile> add = new ArrayList<>();
        List<DataFile> remove = new ArrayList<>();
        Set<String> changed = new TreeSet<>();
        live.forEach((key, f) -> {
            if (!current.containsKey(key)) {
                add.add(f);
                changed.add(directory(key));
            }
        });
        current.forEach((key, f) -> {
            if (!live.containsKey(key)) {
                remove.add(f);
                changed.add(directory(key));
            }
        });
        return new SyncPlan(add, remove, changed);
    }

    /** A partition's directory (its data prefix without the trailing '/'), from one of its files' keys. */
    private static String directory(String key) {
        return key.substring(0, Math.max(0, key.lastIndexOf('/')));
    }

    public boolean isEmpty() {
        return add.isEmpty() && remove.isEmpty();
    }
}
