package dev.ourios.bench;

import dev.ourios.compaction.PartitionRewriter;
import dev.ourios.compaction.RewriteResult;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.store.ObjectStore;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Our compaction mechanism on a plan built the way the policy builds it (adaptive row-group threshold, the given
 * sort budget, fan-in and largest output file). Only the rewrite is timed: planning and the manifest commit are a
 * few small-object operations. The published, invisible outputs are deleted after each run so every run sees the
 * same partition.
 */
public final class RewriterContender implements Contender {
    private final String name;
    private final Function<ObjectStore, PartitionRewriter> rewriters;
    private final long sortBudgetBytes;
    private final int fanIn;
    private final long maxFileBytes;

    public RewriterContender(String name, Function<ObjectStore, PartitionRewriter> rewriters, long sortBudgetBytes,
            int fanIn) {
        this(name, rewriters, sortBudgetBytes, fanIn, CompactionOptions.DEFAULT_MAX_FILE_BYTES);
    }

    /** A contender whose outputs are cut into bands of files of at most {@code maxFileBytes}. */
    public RewriterContender(String name, Function<ObjectStore, PartitionRewriter> rewriters, long sortBudgetBytes,
            int fanIn, long maxFileBytes) {
        this.name = name;
        this.rewriters = rewriters;
        this.sortBudgetBytes = sortBudgetBytes;
        this.fanIn = fanIn;
        this.maxFileBytes = maxFileBytes;
    }

    @Override
    public String name() {
        return name;
    }

    public static CompactionPlan plan(Fixture f, long sortBudgetBytes, int fanIn) {
        return new CompactionPlan(f.partition(), 0, f.inputs(), RowGroupSizing.adaptive(f.bytes()), sortBudgetBytes,
                fanIn);
    }

    @Override
    public Outcome run(Fixture f) throws Exception {
        CompactionPlan plan = new CompactionPlan(f.partition(), 0, f.inputs(),
                RowGroupSizing.resolve(OptionalLong.empty(), f.bytes(), maxFileBytes), sortBudgetBytes, fanIn,
                maxFileBytes);
        PartitionRewriter rewriter = rewriters.apply(f.store());
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        RewriteResult r = rewriter.rewrite(plan);
        double secs = (System.nanoTime() - t0) / 1e9;
        double cpu = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
        for (RewriteResult.Output out : r.outputs()) {
            f.store().delete(out.key());
        }
        if (!r.checksumsMatch()) {
            throw new IllegalStateException(name + ": checksums differ: " + r);
        }
        return new Outcome(secs, cpu, r.rowsOut(), r.bytesOut(), r.rowGroups(), r.spilledRuns(), r.outputs().size());
    }
}
