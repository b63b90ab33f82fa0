package dev.ourios.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The token bucket's arithmetic on a fake clock whose sleeper advances the clock by exactly the wait asked. */
class RateLimiterTest {
    private static final long SECOND = 1_000_000_000L;

    /** A fake monotonic clock; sleeping records the wait and moves time on by it. */
    private static final class FakeTime {
        long now = 5 * SECOND; // any origin: only differences count
        final List<Long> sleeps = new ArrayList<>();

        RateLimiter limiter(long rate, long burst) {
            return new RateLimiter(rate, burst, () -> now, n -> {
                sleeps.add(n);
                now += n;
            });
        }
    }

    @Test
    void a_full_bucket_lets_the_burst_through_without_waiting() throws Exception {
        FakeTime t = new FakeTime();
        RateLimiter l = t.limiter(1000, 1000);
        l.acquire(400);
        l.acquire(600);
        assertEquals(List.of(), t.sleeps);
    }

    @Test
    void past_the_burst_each_charge_waits_for_its_own_deficit() throws Exception {
        FakeTime t = new FakeTime();
        RateLimiter l = t.limiter(1000, 1000);
        l.acquire(1000);
        l.acquire(500); // 500 B of debt at 1000 B/s
        l.acquire(250); // the bucket is empty again after the wait
        assertEquals(List.of(SECOND / 2, SECOND / 4), t.sleeps);
    }

    @Test
    void a_charge_larger_than_the_burst_proceeds_after_waiting_its_share() throws Exception {
        FakeTime t = new FakeTime();
        RateLimiter l = t.limiter(1000, 100);
        l.acquire(2100); // 100 B from the bucket, 2000 B of debt
        assertEquals(List.of(2 * SECOND), t.sleeps);
    }

    @Test
    void idle_time_refills_the_bucket_but_never_beyond_the_burst() throws Exception {
        FakeTime t = new FakeTime();
        RateLimiter l = t.limiter(1000, 1000);
        l.acquire(1000);
        t.now += 10 * SECOND; // ten seconds idle buy one burst, not ten
        l.acquire(1000);
        assertEquals(List.of(), t.sleeps);
        l.acquire(1000);
        assertEquals(List.of(SECOND), t.sleeps);
    }

    @Test
    void partial_refill_counts_fractions_of_a_second() throws Exception {
        FakeTime t = new FakeTime();
        RateLimiter l = t.limiter(1000, 1000);
        l.acquire(1000);
        t.now += SECOND / 10; // 100 B back
        l.acquire(300);
        assertEquals(List.of(SECOND / 5), t.sleeps);
    }

    @Test
    void reservations_queue_debt_so_the_second_caller_waits_behind_the_first() {
        FakeTime t = new FakeTime();
        RateLimiter l = t.limiter(1000, 1000);
        // two callers reserve at the same instant, before either sleeps (as concurrent threads do)
        assertEquals(0, l.reserve(1000));
        assertEquals(SECOND, l.reserve(1000));
        assertEquals(2 * SECOND, l.reserve(1000));
    }

    @Test
    void over_any_run_the_bytes_granted_stay_within_rate_times_time_plus_burst() throws Exception {
        FakeTime t = new FakeTime();
        long start = t.now;
        RateLimiter l = t.limiter(1 << 20, 1 << 20);
        long granted = 0;
        java.util.Random r = new java.util.Random(7);
        for (int i = 0; i < 10_000; i++) {
            long n = 1 + r.nextInt(256 << 10);
            l.acquire(n);
            granted += n;
            t.now += r.nextInt(1000) * 1000L; // the caller works a little between charges
            double elapsedSeconds = (t.now - start) / 1e9;
            assertEquals(true, granted <= (1 << 20) * elapsedSeconds + (1 << 20) + 1,
                    "granted " + granted + " in " + elapsedSeconds + " s");
        }
    }

    @Test
    void nothing_or_less_is_free() throws Exception {
        FakeTime t = new FakeTime();
        RateLimiter l = t.limiter(1, 1);
        l.acquire(1);
        l.acquire(0);
        l.acquire(-5);
        assertEquals(List.of(), t.sleeps);
    }

    @Test
    void a_rate_or_burst_below_one_byte_is_refused() {
        FakeTime t = new FakeTime();
        assertThrows(IllegalArgumentException.class, () -> t.limiter(0, 1));
        assertThrows(IllegalArgumentException.class, () -> t.limiter(1, 0));
    }
}
