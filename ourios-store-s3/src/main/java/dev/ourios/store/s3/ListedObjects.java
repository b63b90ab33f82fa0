package dev.ourios.store.s3;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The size and ETag of the objects the latest listings returned, so that opening one for ranged reads needs no HEAD:
 * its GETs are pinned to the listed ETag exactly as to a HEAD's, so an object replaced since its listing fails its
 * first read (412) and one deleted since fails it as absent (404), as a HEAD would have failed the open. Bounded:
 * the least recently listed or opened entries go first. An entry found stale is forgotten.
 */
final class ListedObjects {
    /** What a listing said of one object. */
    record Listed(long size, String eTag) {
    }

    private final int capacity;
    private final LinkedHashMap<String, Listed> entries;

    ListedObjects(int capacity) {
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Listed> eldest) {
                return size() > ListedObjects.this.capacity;
            }
        };
    }

    synchronized void remember(String key, long size, String eTag) {
        if (eTag != null && !eTag.isEmpty()) {
            entries.put(key, new Listed(size, eTag));
        }
    }

    synchronized Optional<Listed> find(String key) {
        return Optional.ofNullable(entries.get(key));
    }

    synchronized void forget(String key) {
        entries.remove(key);
    }

    synchronized int size() {
        return entries.size();
    }
}
