package dev.ourios.compaction.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.PartitionKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Which process writes which group of a shared rewrite (storage.md §4.14, "Sharing one rewrite between compactor
 * processes"): every group exactly once, the partition's own shard group 0, no process two groups, and a process's
 * group split between its workers by the workers' rule.
 */
class ShareProcessesTest {
    @Test
    void every_group_is_written_by_exactly_one_process_and_the_owner_writes_group_zero() {
        long seed = System.nanoTime();
        System.out.println("ShareProcessesTest seed " + seed);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 2_000; round++) {
            int n = 1 + rnd.nextInt(12);
            int shares = 1 + rnd.nextInt(64);
            PartitionKey p = PartitionKey.ofHour("t" + rnd.nextInt(1_000),
                    Instant.ofEpochSecond(3600L * rnd.nextInt(500_000)));
            int groups = new ShareProcesses(0, n).groups(shares);
            assertEquals(Math.min(n, shares), groups, "seed " + seed);
            int[] writers = new int[groups];
            for (int i = 0; i < n; i++) {
                int g = new ShareProcesses(i, n).groupOf(p, groups);
                if (g >= 0) {
                    writers[g]++;
                }
                if (i == (int) Long.remainderUnsigned(p.shardHash(), n)) {
                    assertEquals(0, g, "the owner writes group 0, seed " + seed);
                }
            }
            for (int g = 0; g < groups; g++) {
                assertEquals(1, writers[g], "group " + g + " of " + groups + " on " + n + " processes, seed " + seed);
            }
        }
    }

    @Test
    void a_group_split_between_workers_covers_its_shares_in_order_and_matches_the_whole_rewrites_rule() {
        long seed = System.nanoTime();
        System.out.println("ShareProcessesTest seed " + seed);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 2_000; round++) {
            int from = rnd.nextInt(40);
            int to = from + 1 + rnd.nextInt(24);
            int workers = 1 + rnd.nextInt(10);
            List<Shares.Group> parts = new Shares.Group(from, to).split(workers);
            assertEquals(Math.min(workers, to - from), parts.size(), "seed " + seed);
            int next = from;
            for (Shares.Group g : parts) {
                assertEquals(next, g.from(), "contiguous, seed " + seed);
                next = g.to();
            }
            assertEquals(to, next, "every share once, seed " + seed);
        }
        List<ShareKey> cuts = new ArrayList<>();
        for (int i = 1; i < 7; i++) {
            cuts.add(new ShareKey("svc", i));
        }
        Shares seven = Shares.cutAt(cuts);
        assertEquals(seven.groups(3), new Shares.Group(0, 7).split(3), "the whole rewrite's groups");
        assertTrue(seven.groups(3).get(1).holds(3));
    }
}
