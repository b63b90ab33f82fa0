package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.LiveSetChanges;
import java.time.Clock;
import java.util.Objects;

/**
 * Everything {@link CompactionWiring#deletion} builds a deletion from. {@link #of} gives the settings of a plain
 * deletion; each {@code with...} changes one of them.
 *
 * @param store          the store the deletion rewrites
 * @param options        sort budget, fan-in, row groups, GC grace for the output-age guard, scratch
 * @param clock          commit timestamps and the output-age guard
 * @param liveSetChanges told of every partition a deletion commits
 */
public record DeletionSettings(ObjectStore store, CompactionOptions options, Clock clock,
        LiveSetChanges liveSetChanges) {
    public DeletionSettings {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(liveSetChanges, "liveSetChanges");
    }

    /** A plain deletion on {@code store}: the system's UTC clock, no one told of commits. */
    public static DeletionSettings of(ObjectStore store, CompactionOptions options) {
        return new DeletionSettings(store, options, Clock.systemUTC(), LiveSetChanges.NONE);
    }

    public DeletionSettings withClock(Clock c) {
        return new DeletionSettings(store, options, c, liveSetChanges);
    }

    public DeletionSettings withLiveSetChanges(LiveSetChanges c) {
        return new DeletionSettings(store, options, clock, c);
    }
}
