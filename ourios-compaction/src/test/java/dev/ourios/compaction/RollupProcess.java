package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.store.HaltingObjectStore;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.PartitionFilter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A compactor with the rollup on, as a separate process for the rollup's crash test: sweeps over a store directory,
 * one after another (or one, halting itself at a named protocol step on a {@link HaltingObjectStore}), so the test
 * can SIGKILL it anywhere in a rollup. Arguments: {@code <store dir> <scratch dir> <gc grace millis> <step>|none
 * <sweeps>}. Prints {@code SWEEP} before the first sweep and {@code DONE <committed>} after each.
 */
public final class RollupProcess {
    private RollupProcess() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: RollupProcess <store dir> <scratch dir> <gc grace millis> <step>|none <sweeps>");
            System.exit(2);
        }
        Optional<HaltingObjectStore.Step> haltAt = args[3].equals(CompactorProcess.NO_HALT) ? Optional.empty()
                : Optional.of(HaltingObjectStore.Step.of(args[3]));
        // Tiny row groups: the day file is written in many, so a kill mid-rewrite leaves a partly written temp file.
        CompactionOptions opts = CompactionOptions.defaults(Path.of(args[1])).withRollup(true)
                .withRowGroupBytes(OptionalLong.of(1024)).withGcGrace(Duration.ofMillis(Long.parseLong(args[2])));
        LocalObjectStore local = new LocalObjectStore(Path.of(args[0]));
        ObjectStore store = haltAt.<ObjectStore>map(step -> HaltingObjectStore.haltingAt(local, step)).orElse(local);
        System.out.println("SWEEP");
        System.out.flush();
        for (int i = 0; i < Integer.parseInt(args[4]); i++) {
            SweepReport report = CompactionWiring.sweepRunner(SweepSettings.of(store, opts)
                    .withPlanClock(TestStores.LATER)).sweep(PartitionFilter.all(), r -> { });
            System.out.println("DONE " + report.count(PartitionResult.Result.COMMITTED) + " " + report.errors());
            System.out.flush();
            if (report.hasErrors()) {
                System.exit(1);
            }
        }
        System.exit(0);
    }
}
