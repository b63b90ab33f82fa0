package dev.ourios.compaction.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The shares' rule (storage.md §4.14): how many, where they are cut, which share holds a key, who writes which. */
class SharesTest {
    private static final String[] SERVICES = {null, "", "ad", "cart", "cart-2", "checkout", "é-service", "\uD83D\uDE00"};

    @Test
    void a_rewrite_is_split_once_it_holds_four_times_the_largest_file_and_never_into_more_than_sixty_four() {
        assertEquals(1, ShareSampler.shareCount(0, 1 << 20));
        assertEquals(1, ShareSampler.shareCount((4L << 20) - 1, 1 << 20));
        assertEquals(2, ShareSampler.shareCount(4L << 20, 1 << 20));
        assertEquals(2, ShareSampler.shareCount((6L << 20) - 1, 1 << 20));
        assertEquals(3, ShareSampler.shareCount(6L << 20, 1 << 20));
        assertEquals(64, ShareSampler.shareCount(1L << 40, 1 << 20));
    }

    @Test
    void cuts_are_the_sorted_samples_at_j_n_over_k_and_equal_cuts_count_once() {
        List<ShareKey> sample = new ArrayList<>();
        for (int t = 9; t >= 0; t--) {
            sample.add(new ShareKey("svc", t));
        }
        Shares s = ShareSampler.cutsOf(sample, 4); // n = 10: positions 2, 5, 7
        assertEquals(List.of(new ShareKey("svc", 2), new ShareKey("svc", 5), new ShareKey("svc", 7)), s.cuts());
        List<ShareKey> same = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            same.add(new ShareKey("svc", i < 8 ? 1 : 2));
        }
        assertEquals(List.of(new ShareKey("svc", 1)), ShareSampler.cutsOf(same, 4).cuts(),
                "positions 2, 5 and 7 are one key: one cut, two shares");
        assertEquals(1, ShareSampler.cutsOf(List.of(), 4).count());
        assertThrows(IllegalArgumentException.class, () -> Shares.cutAt(List.of(new ShareKey("b", 1),
                new ShareKey("a", 1))));
    }

    @Test
    void every_key_is_in_the_one_share_whose_cuts_surround_it() {
        long seed = System.nanoTime();
        System.out.println("SharesTest seed " + seed);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 200; round++) {
            List<ShareKey> sample = new ArrayList<>();
            int n = 1 + rnd.nextInt(50);
            for (int i = 0; i < n; i++) {
                sample.add(randomKey(rnd));
            }
            Shares shares = ShareSampler.cutsOf(sample, 2 + rnd.nextInt(10));
            for (int i = 0; i < 50; i++) {
                ShareKey k = randomKey(rnd);
                int share = shares.shareOf(k.service(), k.time());
                int linear = 0;
                while (linear < shares.cuts().size() && shares.cuts().get(linear).compareTo(k) <= 0) {
                    linear++;
                }
                assertEquals(linear, share, "seed " + seed + ": " + k + " in " + shares);
                assertTrue(share == 0 || shares.cut(share).compareTo(k) <= 0, "seed " + seed);
                assertTrue(share == shares.count() - 1 || k.compareTo(shares.cut(share + 1)) < 0, "seed " + seed);
            }
        }
    }

    @Test
    void workers_take_contiguous_groups_that_cover_every_share_once() {
        for (int k = 1; k <= 20; k++) {
            List<ShareKey> cuts = new ArrayList<>();
            for (int j = 1; j < k; j++) {
                cuts.add(new ShareKey("s", j));
            }
            Shares shares = Shares.cutAt(cuts);
            for (int workers = 1; workers <= 25; workers++) {
                List<Shares.Group> groups = shares.groups(workers);
                assertEquals(Math.min(workers, k), groups.size());
                int next = 0;
                for (Shares.Group g : groups) {
                    assertEquals(next, g.from(), k + " shares, " + workers + " workers");
                    next = g.to();
                }
                assertEquals(k, next);
            }
        }
    }

    private static ShareKey randomKey(SplittableRandom rnd) {
        return new ShareKey(SERVICES[rnd.nextInt(SERVICES.length)], rnd.nextInt(20) - 5);
    }
}
