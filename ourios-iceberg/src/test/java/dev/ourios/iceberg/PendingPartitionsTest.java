package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.PartitionKey;
import dev.ourios.testkit.TestSeed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the committers report is never lost: every reported partition ends in a scope a sync took and completed, or
 * in one that covers every partition, whatever the interleaving of reports, takes and failed syncs (put back), and
 * a set past its limit widens to every partition.
 */
class PendingPartitionsTest {
    private static PartitionKey partition(int i) {
        return new PartitionKey("t" + (i % 7), 2026, 1 + i % 12, 1 + i % 28, i % 24);
    }

    @Test
    void everyReportedPartitionReachesASuccessfulSyncUnderConcurrentReports() throws Exception {
        long seed = TestSeed.announce(PendingPartitionsTest.class);
        Random random = new Random(seed);
        for (int round = 0; round < 20; round++) {
            int limit = 1 + random.nextInt(200);
            PendingPartitions pending = new PendingPartitions(limit);
            int reporters = 1 + random.nextInt(4);
            int perReporter = random.nextInt(300);
            Set<PartitionKey> reported = ConcurrentHashMap.newKeySet();
            ExecutorService pool = Executors.newFixedThreadPool(reporters);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int r = 0; r < reporters; r++) {
                long reporterSeed = random.nextLong();
                done.add(pool.submit(() -> {
                    Random mine = new Random(reporterSeed);
                    go.await();
                    for (int i = 0; i < perReporter; i++) {
                        PartitionKey p = partition(mine.nextInt(400));
                        reported.add(p); // before the report: a take that sees it may not miss it
                        pending.changed(p);
                    }
                    return null;
                }));
            }
            // The syncer: takes scopes while reports arrive; a third of its syncs fail and put the scope back.
            Set<PartitionKey> synced = new HashSet<>();
            boolean sawEverything = false;
            go.countDown();
            boolean reportersDone = false;
            while (true) {
                Optional<SyncScope> scope = pending.take();
                if (scope.isPresent()) {
                    if (random.nextInt(3) == 0) {
                        pending.restore(scope.get());
                    } else if (scope.get().isFull()) {
                        sawEverything = true;
                        // A full sync reads every partition whose change was visible when it read: every one whose
                        // report had started by now (a change is visible before its report).
                        synced.addAll(new HashSet<>(reported));
                    } else {
                        synced.addAll(scope.get().partitions().orElseThrow());
                    }
                } else if (reportersDone) {
                    break;
                }
                reportersDone = done.stream().allMatch(Future::isDone);
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            assertFalse(pending.any());
            Set<PartitionKey> missed = new HashSet<>(reported);
            missed.removeAll(synced);
            assertEquals(Set.of(), missed, "round " + round + " seed " + seed);
            // A full scope comes only from an overflow, which needs more distinct partitions than the limit.
            if (reported.size() <= limit) {
                assertFalse(sawEverything, "round " + round + " seed " + seed);
            }
        }
    }

    @Test
    void pastTheLimitTheScopeIsEveryPartitionAndAFailedFullSyncStaysFull() {
        PendingPartitions pending = new PendingPartitions(2);
        pending.changed(partition(1));
        pending.changed(partition(2));
        assertEquals(Optional.of(SyncScope.of(List.of(partition(1), partition(2)))), pending.take());
        assertEquals(Optional.empty(), pending.take());
        pending.changed(partition(1));
        pending.changed(partition(2));
        pending.changed(partition(3));
        SyncScope all = pending.take().orElseThrow();
        assertTrue(all.isFull());
        pending.changed(partition(4));
        pending.restore(all);
        assertTrue(pending.take().orElseThrow().isFull(), "a failed full sync is retried in full");
        pending.requireEveryPartition();
        pending.changed(partition(5));
        assertTrue(pending.take().orElseThrow().isFull());
    }

    @Test
    void aReportEndsAWaitAndAWakeEndsAnIdleOne() throws Exception {
        PendingPartitions pending = new PendingPartitions(10);
        assertFalse(pending.await(Duration.ofMillis(1)), "nothing pending: the wait times out");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Boolean> waiting = pool.submit(() -> pending.await(Duration.ofMinutes(5)));
            pending.changed(partition(1));
            assertTrue(waiting.get(30, TimeUnit.SECONDS));
            pending.take();
            Future<Boolean> idle = pool.submit(() -> pending.await(Duration.ofMinutes(5)));
            pending.wake();
            assertFalse(idle.get(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }
}
