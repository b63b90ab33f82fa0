package dev.ourios.server.sweep;

import dev.ourios.compaction.plan.CompactionOptions;
import java.time.Duration;
import java.util.Objects;

/**
 * The compaction daemon of the service.
 *
 * @param enabled  false: the process serves queries (and ingest) only
 * @param interval time between the end of one sweep and the start of the next
 * @param options  the sweep's knobs, as {@code ourios compact} takes them
 */
public record SweepLoopSettings(boolean enabled, Duration interval, CompactionOptions options) {
    public SweepLoopSettings {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(options, "options");
    }
}
