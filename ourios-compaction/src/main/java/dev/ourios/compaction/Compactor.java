package dev.ourios.compaction;

import dev.ourios.core.Uuid7;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.time.Clock;

/**
 * Wires a {@link SweepRunner} from a store and options: the one place the compaction object graph is built.
 *
 * <p>Two clocks: {@code planClock} decides which hours are sealed ({@code --now}, or a simulated clock in soak
 * tests); {@code wallClock} drives everything that compares against object modification times (GC ages, the
 * committer's output-age guard, commit timestamps), which only make sense in real time.
 */
public final class Compactor {
    private Compactor() {
    }

    public static SweepRunner sweepRunner(ObjectStore store, CompactionOptions options, Clock planClock,
            Clock clock, MeterProvider meters, OutputFault fault, boolean gcDryRun) {
        ManifestCodec codec = new ManifestCodec();
        TableLayout layout = new TableLayout(store);
        TableReader reader = new TableReader(store, codec);
        GarbageCollector gc = new GarbageCollector(store, layout, reader, new GcOptions(options.gcGrace(), gcDryRun),
                clock);
        CompactionPolicy policy = new CompactionPolicy(options, System.getenv(RowGroupSizing.ENV));
        PartitionRewriter rewriter = new SortedRewriter(store, options.scratchDir(), Uuid7.system(), fault);
        ManifestCommitter committer = ManifestCommitter.forGcGrace(store, codec, clock, options.gcGrace());
        AuditLog audit = new AuditLog(store, options.scratchDir());
        PartitionCompactor compactor = new PartitionCompactor(rewriter, committer, audit, clock);
        return new SweepRunner(layout, reader, gc, policy, compactor, audit, new CompactionMetrics(meters),
                planClock, clock, options.concurrency());
    }

    public static SweepRunner sweepRunner(ObjectStore store, CompactionOptions options, Clock planClock,
            MeterProvider meters) {
        return sweepRunner(store, options, planClock, Clock.systemUTC(), meters, OutputFault.NONE, false);
    }
}
