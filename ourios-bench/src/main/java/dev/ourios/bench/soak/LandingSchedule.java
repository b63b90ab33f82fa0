package dev.ourios.bench.soak;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * When each ingest file lands, as a real ingest path would: every tenant-hour gets {@code filesPerHour} on-time
 * files spread evenly through the hour (tenants staggered so their flushes do not coincide), then
 * {@code lateFiles} late files landed in the second half of the next hour, well after {@code grace} has sealed it, so they arrive once
 * the daemon has (usually) compacted it and must be folded in by a later sweep. The last hour gets no late files:
 * the run ends with it.
 */
public final class LandingSchedule {
    private static final Duration HOUR = Duration.ofHours(1);

    private LandingSchedule() {
    }

    public static List<Landing> build(List<String> tenants, Instant firstHour, int hours, int filesPerHour,
            int lateFiles, Duration grace) {
        List<Landing> out = new ArrayList<>();
        long hourNanos = HOUR.toNanos();
        long lateSpan = hourNanos - grace.toNanos();
        for (int h = 0; h < hours; h++) {
            Instant start = firstHour.plus(HOUR.multipliedBy(h));
            for (int t = 0; t < tenants.size(); t++) {
                double stagger = (t + 0.5) / tenants.size();
                for (int f = 0; f < filesPerHour; f++) {
                    long offset = Math.round(hourNanos * (f + stagger) / filesPerHour);
                    out.add(new Landing(start.plusNanos(offset), tenants.get(t), h, f, false));
                }
                if (h + 1 < hours) {
                    for (int k = 0; k < lateFiles; k++) {
                        // In the second half of what is left of the next hour, so most arrive after the daemon
                        // has compacted the hour once: the case that must re-flag a compacted partition.
                        long offset = grace.toNanos() + lateSpan / 2
                                + Math.round(lateSpan / 2.0 * (k + stagger) / (lateFiles + 0.5));
                        out.add(new Landing(start.plus(HOUR).plusNanos(offset), tenants.get(t), h, filesPerHour + k,
                                true));
                    }
                }
            }
        }
        out.sort(Comparator.comparing(Landing::at).thenComparing(Landing::tenant));
        return List.copyOf(out);
    }
}
