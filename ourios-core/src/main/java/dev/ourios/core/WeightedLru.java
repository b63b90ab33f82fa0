package dev.ourios.core;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A map of at most {@code maxWeight} in total, least recently used out first: the bounded store behind the caches
 * of immutable objects (parsed footers, indexes, manifests). Each value is put with its weight (an estimate of the
 * heap it holds); a value heavier than the whole bound is not kept. Thread-safe: one lock, held only for the map
 * operation (values are built outside it, so two threads missing the same key both build it and the second put
 * wins, which for an immutable object is the same value).
 */
public final class WeightedLru<K, V> {
    private final long maxWeight;
    private final LinkedHashMap<K, Weighted<V>> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long weight;

    private record Weighted<V>(V value, long weight) {
    }

    /** A map of at most {@code maxWeight} in total; 0 keeps nothing. */
    public WeightedLru(long maxWeight) {
        if (maxWeight < 0) {
            throw new IllegalArgumentException("cache bound must be >= 0, got " + maxWeight);
        }
        this.maxWeight = maxWeight;
    }

    /** The value kept for {@code key}, marking it most recently used. */
    public synchronized Optional<V> get(K key) {
        Weighted<V> e = entries.get(key);
        return e == null ? Optional.empty() : Optional.of(e.value);
    }

    /** Keeps {@code value} of weight {@code w} (at least 1), evicting the least recently used beyond the bound. */
    public synchronized void put(K key, V value, long w) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        long kept = Math.max(1, w);
        if (kept > maxWeight) {
            return;
        }
        Weighted<V> old = entries.put(key, new Weighted<>(value, kept));
        weight += kept - (old == null ? 0 : old.weight);
        for (Iterator<Map.Entry<K, Weighted<V>>> it = entries.entrySet().iterator(); weight > maxWeight && it.hasNext(); ) {
            Map.Entry<K, Weighted<V>> eldest = it.next();
            weight -= eldest.getValue().weight;
            it.remove();
        }
    }

    /** The total weight held now (never above the bound). */
    public synchronized long weight() {
        return weight;
    }

    /** The number of values held now. */
    public synchronized int size() {
        return entries.size();
    }

    public long maxWeight() {
        return maxWeight;
    }
}
