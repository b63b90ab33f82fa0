package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.Shard;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Retention;
import dev.ourios.store.HaltingObjectStore;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * The compactor as a separate process for the RFC0009.4 crash tests: one real sweep (GC, plan, rewrite, commit,
 * audit) over a store directory, run in a child JVM that the test SIGKILLs at a random moment or that halts itself
 * at a named protocol step: the sweep then runs on a {@link HaltingObjectStore} wrapping the directory's store.
 *
 * <p>Arguments: {@code <store dir> <scratch dir> <gc grace millis> <concurrency> warm|cold <step>|none
 * [retention|none [max file bytes [share workers [shard i/N]]]]}, the step a {@link HaltingObjectStore.Step} label ({@value #NO_HALT}: run to
 * the end), the retention an ISO-8601 duration every tenant keeps its logs for (none when absent or
 * {@value #NO_HALT}), the largest compacted file (the default when absent), which makes outputs bands, the share
 * workers and the process's shard ({@code --shard}, which shares large rewrites with the other shards' processes). With {@code warm}, one
 * partition is first compacted in a private copy, so class loading and JIT happen before the sweep and a random
 * kill lands in protocol work rather than in start-up. Prints {@code SWEEP} when the sweep starts (the parent times
 * its kill from there), {@code RESULT <millis> <partition> <result>} as each partition finishes and
 * {@code DONE <millis> <committed> <errors>} when the sweep ends; exits 0, or 1 if the sweep recorded errors.
 */
public final class CompactorProcess {
    /** The step argument of a child that halts nowhere. */
    static final String NO_HALT = "none";

    private CompactorProcess() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 6 || args.length > 10 || !List.of("warm", "cold").contains(args[4])) {
            System.err.println("usage: CompactorProcess <store dir> <scratch dir> <gc grace millis> <concurrency>"
                    + " warm|cold <step>|none [retention|none [max file bytes [share workers [shard i/N]]]]");
            System.exit(2);
        }
        // A mistyped step fails here, before anything is touched.
        Optional<HaltingObjectStore.Step> haltAt = args[5].equals(NO_HALT) ? Optional.empty()
                : Optional.of(HaltingObjectStore.Step.of(args[5]));
        Path storeDir = Path.of(args[0]);
        Path scratch = Path.of(args[1]);
        // Min-files 1 and tiny row groups: every multi-file partition is compacted, and its output is flushed to
        // the store in many row groups, so a kill mid-rewrite leaves a partly written temp file.
        // With share workers, the adaptive threshold: a partition large enough to be shared holds too many rows
        // for 1 KiB groups.
        int shareWorkers = args.length >= 9 ? Integer.parseInt(args[8]) : 1;
        Shard shard = args.length == 10 ? Shard.parse(args[9]) : Shard.ALL;
        CompactionOptions opts = CompactionOptions.defaults(scratch).withMinFiles(1)
                .withRowGroupBytes(args.length >= 9 ? OptionalLong.empty() : OptionalLong.of(1024))
                .withShareWorkers(shareWorkers)
                .withGcGrace(Duration.ofMillis(Long.parseLong(args[2])))
                .withConcurrency(Integer.parseInt(args[3]))
                .withRetention(args.length >= 7 && !args[6].equals(NO_HALT) ? Retention.of(Duration.parse(args[6]))
                        : Retention.NONE)
                .withMaxFileBytes(args.length >= 8 ? Long.parseLong(args[7]) : CompactionOptions.DEFAULT_MAX_FILE_BYTES);
        LocalObjectStore local = new LocalObjectStore(storeDir);
        if (args[4].equals("warm")) {
            warmUp(local, storeDir.resolveSibling("warmup-" + ProcessHandle.current().pid()), opts);
        }
        ObjectStore store = haltAt.<ObjectStore>map(step -> HaltingObjectStore.haltingAt(local, step)).orElse(local);
        SweepRunner runner = CompactionWiring.sweepRunner(SweepSettings.of(store, opts).withPlanClock(TestStores.LATER)
                .withShard(shard));
        System.out.println("SWEEP");
        System.out.flush();
        long started = System.nanoTime();
        SweepReport report = runner.sweep(PartitionFilter.all(), r -> {
            System.out.println("RESULT " + (System.nanoTime() - started) / 1_000_000 + " " + r.partition() + " "
                    + r.result().label());
            System.out.flush();
        });
        System.out.println("DONE " + (System.nanoTime() - started) / 1_000_000 + " "
                + report.count(PartitionResult.Result.COMMITTED) + " " + report.errors());
        System.out.flush();
        System.exit(report.hasErrors() ? 1 : 0);
    }

    /** Compacts a copy of the first partition's live files in a private store, then deletes that store. */
    private static void warmUp(LocalObjectStore store, Path dir, CompactionOptions opts) throws IOException {
        LocalObjectStore copy = new LocalObjectStore(dir.resolve("store"));
        List<PartitionKey> partitions = new TableLayout(store).partitions(PartitionFilter.all());
        if (!partitions.isEmpty()) {
            for (ObjectInfo o : TestStores.snapshot(store, partitions.get(0)).live()) {
                copy.put(o.key(), store.readAllBytes(o.key()));
            }
            CompactionWiring.sweepRunner(SweepSettings.of(copy, opts.withConcurrency(1))
                    .withPlanClock(TestStores.LATER)).sweep(PartitionFilter.all(), r -> { });
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
