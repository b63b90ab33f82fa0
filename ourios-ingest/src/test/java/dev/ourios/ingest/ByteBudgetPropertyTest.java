package dev.ourios.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The fair-share budget's invariants under random concurrent charges and releases by several tenants: the whole
 * never exceeds the limit, no tenant exceeds its share, a tenant below its share is refused only when the whole is
 * full, and everything returns to zero. Seeded: a failure prints the seed ({@code -Dourios.seed} replays it).
 */
class ByteBudgetPropertyTest {
    @Test
    void no_tenant_exceeds_its_share_and_everything_is_returned() throws Exception {
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        Random r = new Random(seed);
        long limit = 1_000 + r.nextInt(100_000);
        double share = 0.05 + r.nextDouble() * 0.95;
        ByteBudget budget = new ByteBudget(limit, share);
        String ctx = "seed=" + seed + " limit=" + limit + " share=" + share;
        int tenants = 2 + r.nextInt(6);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                long workerSeed = r.nextLong();
                work.add(pool.submit(() -> {
                    Random wr = new Random(workerSeed);
                    List<long[]> held = new ArrayList<>();
                    for (int i = 0; i < 5_000; i++) {
                        if (!held.isEmpty() && wr.nextInt(3) == 0) {
                            long[] h = held.remove(wr.nextInt(held.size()));
                            budget.release("t" + h[0], h[1]);
                        } else {
                            int t = wr.nextInt(tenants);
                            long n = 1 + wr.nextInt((int) Math.max(1, limit / 10));
                            if (budget.tryAcquire("t" + t, n)) {
                                held.add(new long[] {t, n});
                            }
                        }
                        assertTrue(budget.used() <= limit, ctx + " whole " + budget.used());
                        for (int t = 0; t < tenants; t++) {
                            assertTrue(budget.used("t" + t) <= budget.perOwnerLimit(),
                                    ctx + " tenant t" + t + " holds " + budget.used("t" + t));
                        }
                    }
                    for (long[] h : held) {
                        budget.release("t" + h[0], h[1]);
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, budget.used(), ctx);
        for (int t = 0; t < tenants; t++) {
            assertEquals(0, budget.used("t" + t), ctx);
        }
        // Alone, a tenant gets exactly its share and no more; another tenant still gets room.
        assertTrue(budget.tryAcquire("a", budget.perOwnerLimit()), ctx);
        assertTrue(!budget.tryAcquire("a", 1), ctx);
        assertTrue(budget.perOwnerLimit() >= limit || budget.tryAcquire("b", 1), ctx);
    }
}
