package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.table.CommitKind;
import dev.ourios.table.DayPartition;
import dev.ourios.table.TableReader;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.store.CountingObjectStore;
import dev.ourios.store.ObjectStore;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;

/**
 * Runs one planned compaction or tail merge: the plan as a {@link CompactionRewrite} through the
 * {@link RewriteProtocol} (rewrite, verify, commit against the generation the plan read, audit), reported as a
 * {@link PartitionResult}. Any failure before the commit leaves the partition exactly as it was, and no failure
 * escapes as anything but the partition's error result.
 */
public final class PartitionCompactor {
    /** The reason of a rollup's noop when its day has nothing to roll up (a sweep does not report such a day). */
    public static final String NOTHING_TO_ROLL_UP = "nothing to roll up";

    private final Optional<ObjectStore> store;
    private final Function<ObjectStore, CompactionSteps> steps;
    private final Clock clock;

    /** Fixed steps: results carry no request counts. */
    public PartitionCompactor(PartitionRewriter rewriter, ManifestCommitter committer, AuditLog audit, Clock clock) {
        this.store = Optional.empty();
        CompactionSteps fixed = new CompactionSteps(rewriter, committer, audit);
        this.steps = s -> fixed;
        this.clock = clock;
    }

    /**
     * Steps built per compaction on a {@link CountingObjectStore} view of {@code store}, so each result carries the
     * requests its own rewrite, commit and audit made, even with other partitions compacting at the same time.
     */
    public PartitionCompactor(ObjectStore store, Function<ObjectStore, CompactionSteps> steps, Clock clock) {
        this.store = Optional.of(store);
        this.steps = steps;
        this.clock = clock;
    }

    public PartitionResult compact(PartitionSnapshot snapshot, CompactionPlan plan) {
        Optional<CountingObjectStore> counted = store.map(CountingObjectStore::new);
        PartitionResult r = compact(snapshot, plan, counted.<ObjectStore>map(c -> c).orElse(null));
        return counted.map(c -> r.withRequests(c.requests())).orElse(r);
    }

    /**
     * Rolls the day {@code day} up (docs/spec/storage.md, "Rollup: small hours into day files"): its small hours, the
     * late files of its covered hours and its day files' carried rows into the day partition's next generation, on
     * this compactor's steps (one counting view of the store per rollup). Reported as the day's
     * {@link PartitionResult}, labelled by the day's first hour, of action {@link CommitKind#ROLLUP}. {@code atRest}
     * tells the hours the hour policy leaves as they are.
     */
    public PartitionResult rollUp(DayPartition day, TableReader reader, CompactionOptions options,
            java.util.function.Predicate<dev.ourios.table.PartitionSnapshot> atRest) {
        ObjectStore base = store.orElseThrow(() -> new IllegalStateException(
                "BUG: a rollup needs a compactor built on a store"));
        CountingObjectStore counted = new CountingObjectStore(base);
        RollupRewrite rollup;
        CompactionSteps built;
        try {
            built = steps.apply(counted);
            rollup = new RollupRewrite(day, reader, counted, built.rewriter(), options, clock, atRest);
        } catch (Throwable t) {
            return PartitionResult.error(day.label(), -1, day + ": " + Containment.describe(Containment.contain(t)),
                    0);
        }
        return new RewriteProtocol(built.committer(), built.audit()).run(rollup).withRequests(counted.requests());
    }

    private PartitionResult compact(PartitionSnapshot snapshot, CompactionPlan plan, ObjectStore view) {
        CompactionSteps built;
        try {
            built = steps.apply(view);
        } catch (Throwable t) {
            // Building the steps reads nothing, but a class that fails to load fails here: the partition's error.
            return new CompactionRewrite(snapshot, plan, null, clock).report(
                    new RewriteOutcome.Failed(Optional.empty(), Containment.contain(t), 0));
        }
        return new RewriteProtocol(built.committer(), built.audit())
                .run(new CompactionRewrite(snapshot, plan, built.rewriter(), clock));
    }
}
