package dev.ourios.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Change marks against real time: a writer publishes and deletes objects in the hours of a day through the local
 * store, pausing now and then for longer than the quiet period so the day's directories go quiet, while a reader
 * lists the day's tree through kept listings as fast as it can. Every object published before a tree listing began
 * is in it, and every object deleted before it began is not, whichever listings were served under the day's stamp
 * (the test fails unless some were). The quiet period is shortened to 40 ms, still well above the file system's
 * timestamp granularity.
 */
class ChangeMarksConcurrencyTest {
    private static final Duration QUIET = Duration.ofMillis(40);
    private static final int HOURS = 6;

    @TempDir
    Path root;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aTreeListingHoldsEveryObjectPublishedBeforeItAndNoneDeletedBeforeIt() throws Exception {
        long seed = Long.getLong("ourios.test.seed", System.nanoTime());
        System.out.println("ChangeMarksConcurrencyTest seed " + seed + " (replay with -Dourios.test.seed=" + seed + ")");
        LocalObjectStore local = new LocalObjectStore(root);
        QuietListings reader = new QuietListings(local, 100_000, QUIET, Clock.systemUTC());
        AtomicLong events = new AtomicLong();
        Map<String, Long> publishedAt = new ConcurrentHashMap<>();
        Map<String, Long> deleteBegun = new ConcurrentHashMap<>();
        Map<String, Long> deletedAt = new ConcurrentHashMap<>();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
        Thread writer = new Thread(() -> {
            SplittableRandom r = new SplittableRandom(seed);
            List<String> live = new ArrayList<>();
            try {
                for (int n = 0; System.nanoTime() < deadline; n++) {
                    if (!live.isEmpty() && r.nextInt(3) == 0) {
                        String key = live.remove(r.nextInt(live.size()));
                        deleteBegun.put(key, events.incrementAndGet()); // before: present until then
                        local.delete(key);
                        deletedAt.put(key, events.incrementAndGet());
                    } else {
                        String key = "day/hour=0" + r.nextInt(HOURS) + "/f" + n + ".parquet";
                        local.put(key, new byte[1 + r.nextInt(64)]);
                        publishedAt.put(key, events.incrementAndGet());
                        live.add(key);
                    }
                    if (r.nextInt(8) == 0) { // the workload's shape: a pause long enough for the day to go quiet
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(QUIET.toMillis() * 2 + r.nextInt(60)));
                    }
                }
            } catch (Throwable t) {
                writerFailure.set(t);
            }
        }, "change-marks-writer");
        writer.start();
        int listings = 0;
        while (writer.isAlive()) {
            long before = events.get();
            List<ObjectInfo> tree = reader.listTree("day/");
            long after = events.get();
            listings++;
            Set<String> listed = new HashSet<>();
            tree.forEach(o -> listed.add(o.key()));
            for (Map.Entry<String, Long> p : publishedAt.entrySet()) {
                Long begun = deleteBegun.get(p.getKey());
                Long gone = deletedAt.get(p.getKey());
                if (p.getValue() <= before && (begun == null || begun > after)) { // present all through the listing
                    assertTrue(listed.contains(p.getKey()), "seed " + seed + ": " + p.getKey() + " published at "
                            + p.getValue() + " missing from a listing begun at " + before);
                }
                if (gone != null && gone <= before) {
                    assertTrue(!listed.contains(p.getKey()), "seed " + seed + ": " + p.getKey() + " deleted at "
                            + gone + " still in a listing begun at " + before);
                }
            }
        }
        writer.join();
        assertNull(writerFailure.get(), () -> "the writer failed: " + writerFailure.get());
        assertEquals(local.listTree("day/"), reader.listTree("day/"), "seed " + seed + ": at rest");
        assertTrue(reader.leavesServed() > 0, "seed " + seed + ": no hour was served under the day's stamp in "
                + listings + " listings, so nothing here was tested");
    }
}
