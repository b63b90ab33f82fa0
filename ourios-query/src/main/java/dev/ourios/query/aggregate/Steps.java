package dev.ourios.query.aggregate;

import java.time.Duration;
import java.util.List;

/**
 * The bucket widths counts over time use: 1s, 5s, 10s, 30s, 1m, 5m, 10m, 30m, 1h, 3h, 6h, 12h, 1d, 7d. A window
 * without a step gets the narrowest of them that cuts it into at most the target number of buckets, so a chart's
 * bars fall on round times.
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

    /** The narrowest nice width giving at most {@code target} buckets over {@code window} (the widest if none). */
    public static Duration choose(Duration window, int target) {
        for (Duration d : NICE) {
            if (buckets(window, d) <= target) {
                return d;
            }
        }
        return NICE.get(NICE.size() - 1);
    }

    /** How many buckets of width {@code step} aligned to the epoch cover a window of this length (at most). */
    static long buckets(Duration window, Duration step) {
        return Math.floorDiv(window.toNanos() + step.toNanos() - 1, step.toNanos()) + 1;
    }
}
