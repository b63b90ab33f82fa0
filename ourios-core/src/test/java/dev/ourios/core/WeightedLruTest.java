package dev.ourios.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link WeightedLru}: against a model of the same operations it holds exactly the most recently used values that
 * fit, never more than its bound, drops a value heavier than the bound, and keeps the bound under concurrent use.
 */
class WeightedLruTest {
    @Test
    void itHoldsWhatAModelOfLeastRecentlyUsedEvictionHolds() {
        long seed = System.nanoTime();
        System.out.println("WeightedLruTest seed " + seed);
        Random rnd = new Random(seed);
        long max = 1 + rnd.nextInt(5_000);
        WeightedLru<Integer, String> lru = new WeightedLru<>(max);
        List<Integer> order = new ArrayList<>(); // least recently used first
        Map<Integer, Long> weights = new HashMap<>();
        for (int i = 0; i < 5_000; i++) {
            int key = rnd.nextInt(60);
            if (rnd.nextBoolean()) {
                Optional<String> got = lru.get(key);
                assertEquals(order.contains(key), got.isPresent(), "seed " + seed + " step " + i);
                if (got.isPresent()) {
                    assertEquals("v" + key, got.get(), "seed " + seed);
                    order.remove((Integer) key);
                    order.add(key);
                }
                continue;
            }
            long w = rnd.nextInt(10) == 0 ? max + 1 + rnd.nextInt(10) : rnd.nextInt((int) Math.min(max, 900)) + 1;
            lru.put(key, "v" + key, w);
            if (w > max) {
                continue; // not kept; what was kept under the key stays
            }
            order.remove((Integer) key);
            order.add(key);
            weights.put(key, w);
            long total = order.stream().mapToLong(weights::get).sum();
            while (total > max) {
                total -= weights.get(order.remove(0));
            }
            assertEquals(order.size(), lru.size(), "seed " + seed + " step " + i);
            assertEquals(total, lru.weight(), "seed " + seed + " step " + i);
            assertTrue(lru.weight() <= max, "seed " + seed);
        }
        assertThrows(IllegalArgumentException.class, () -> new WeightedLru<>(-1));
        WeightedLru<String, String> none = new WeightedLru<>(0);
        none.put("a", "b", 1);
        assertEquals(Optional.empty(), none.get("a"));
    }

    @Test
    void theBoundHoldsUnderConcurrentUse() throws Exception {
        long seed = System.nanoTime();
        System.out.println("WeightedLruTest threads seed " + seed);
        long max = 10_000;
        WeightedLru<Integer, Integer> lru = new WeightedLru<>(max);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long taskSeed = seed + t;
                tasks.add(() -> {
                    Random rnd = new Random(taskSeed);
                    for (int i = 0; i < 20_000; i++) {
                        int key = rnd.nextInt(500);
                        Optional<Integer> got = lru.get(key);
                        if (got.isPresent()) {
                            assertEquals(key, got.get(), "seed " + seed + ": another key's value");
                        } else {
                            lru.put(key, key, 1 + rnd.nextInt(400));
                        }
                        assertTrue(lru.weight() <= max, "seed " + seed);
                    }
                    return null;
                });
            }
            for (Future<Void> f : pool.invokeAll(tasks, 60, TimeUnit.SECONDS)) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(lru.weight() <= max && lru.size() > 0, "seed " + seed);
    }
}
