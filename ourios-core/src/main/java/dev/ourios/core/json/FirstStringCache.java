package dev.ourios.core.json;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A small LRU of {@link AttributesJson#firstString(String, String)} results for one key, keyed by the attribute
 * JSON. Resource attributes repeat on every row of a service, so a compaction deriving {@code resource.service.name}
 * per row hits the cache almost always. Bounded, so a partition with many distinct resources cannot grow it.
 * Not thread-safe: one instance per reader or per compaction task.
 */
public final class FirstStringCache {
    private final String key;
    private final Map<String, Optional<String>> entries;

    public FirstStringCache(String key, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.key = key;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Optional<String>> eldest) {
                return size() > capacity;
            }
        };
    }

    /** A cache for the promoted {@code resource.service.name} column. */
    public static FirstStringCache serviceName() {
        return new FirstStringCache("service.name", 256);
    }

    public String key() {
        return key;
    }

    public Optional<String> get(String attributesJson) {
        Optional<String> v = entries.get(attributesJson);
        if (v == null) {
            v = AttributesJson.firstString(attributesJson, key);
            entries.put(attributesJson, v);
        }
        return v;
    }
}
