package dev.ourios.query.aggregate;

import java.time.Duration;
import java.util.List;

/**
 * The bucket widths counts over time use: 1s, 5s, 10s, 30s, 1m, 5m, 10m, 30m, 1h, 3h, 6h, 12h, 1d, 7d. A window
 * without a step gets the one whose number of buckets is nearest the target (by ratio; the narrower on a tie), so a
 * chart's bars fall on round times: two hours get 1m (120 buckets), a day 10m (144), a week 1h (168).
 */
public final class Steps {
    /** The nice widths, narrowest first. */
    public static final List<Duration> NICE = List.of(Duration.ofSeconds(1), Duration.ofSeconds(5),
            Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5),
            Duration.ofMinutes(10), Duration.ofMinutes(30), Duration.ofHours(1), Duration.ofHours(3),
            Duration.ofHours(6), Duration.ofHours(12), Duration.ofDays(1), Duration.ofDays(7));
    /** The buckets a window is cut into when no step is given: about this many. */
    public static final int TARGET_BUCKETS = 100;

    private Steps() {
    }

    /** The nice width whose bucket count over {@code window} is nearest {@code target} by ratio. */
    public static Duration choose(Duration window, int target) {
        Duration best = NICE.get(0);
        double bestRatio = Double.MAX_VALUE;
        for (Duration d : NICE) {
            double n = buckets(window, d);
            double ratio = Math.max(n / target, target / n);
            if (ratio < bestRatio) {
                best = d;
                bestRatio = ratio;
            }
        }
        return best;
    }

    /** How many buckets of width {@code step} aligned to the epoch cover a window of this length (at most). */
    static long buckets(Duration window, Duration step) {
        return Math.floorDiv(window.toNanos() + step.toNanos() - 1, step.toNanos()) + 1;
    }
}
