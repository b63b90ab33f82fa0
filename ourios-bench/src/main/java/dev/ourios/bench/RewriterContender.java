package dev.ourios.bench;

import dev.ourios.compaction.PartitionRewriter;
import dev.ourios.compaction.RewriteResult;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.store.ObjectStore;
import java.util.function.Function;

/**
 * Our compaction mechanism on a plan built the way the policy builds it (adaptive row-group threshold, the given
 * sort budget and fan-in). Only the rewrite is timed: planning and the manifest commit are a few small-object
 * operations. The published, invisible output is deleted after each run so every run sees the same partition.
 */
public final class RewriterContender implements Contender {
    private final String name;
    private final Function<ObjectStore, PartitionRewriter> rewriters;
    private final long sortBudgetBytes;
    private final int fanIn;

    public RewriterContender(String name, Function<ObjectStore, PartitionRewriter> rewriters, long sortBudgetBytes,
            int fanIn) {
        this.name = name;
        this.rewriters = rewriters;
        this.sortBudgetBytes = sortBudgetBytes;
        this.fanIn = fanIn;
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
        CompactionPlan plan = plan(f, sortBudgetBytes, fanIn);
        PartitionRewriter rewriter = rewriters.apply(f.store());
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        RewriteResult r = rewriter.rewrite(plan);
        double secs = (System.nanoTime() - t0) / 1e9;
        double cpu = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
        f.store().delete(r.outputKey());
        if (!r.checksumsMatch()) {
            throw new IllegalStateException(name + ": checksums differ: " + r);
        }
        return new Outcome(secs, cpu, r.rowsOut(), r.bytesOut(), r.rowGroups(), r.spilledRuns());
    }
}
