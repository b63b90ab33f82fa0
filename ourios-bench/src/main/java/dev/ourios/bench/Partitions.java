package dev.ourios.bench;

import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.SweepSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.PartitionFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/** Copies of fixtures that a suite may change (compacting one must not touch the cached inputs). */
final class Partitions {
    /** Long after the benchmark hour: every fixture partition is sealed. */
    static final Clock LATER = Clock.fixed(Fixtures.HOUR.plusSeconds(86_400 * 30), ZoneOffset.UTC);

    private Partitions() {
    }

    /** A copy of the fixture's files into a fresh store under {@code name}. */
    static Fixture copy(Fixtures fixtures, Fixture f, String name) throws IOException {
        Path root = fixtures.scratch(name);
        for (ObjectInfo o : f.inputs()) {
            Path dst = root.resolve(o.key());
            Files.createDirectories(dst.getParent());
            Files.copy(f.root().resolve(o.key()), dst);
        }
        return Fixtures.open(f.shape(), root, f.partition());
    }

    /** A copy of the fixture compacted by one real sweep (GC, plan, rewrite, commit), product defaults. */
    static Compacted compacted(Fixtures fixtures, Fixture f, String name) throws IOException {
        Fixture copy = copy(fixtures, f, name);
        Path scratch = fixtures.scratch(name + "-scratch");
        CompactionOptions opts = CompactionOptions.defaults(scratch).withGcGrace(java.time.Duration.ofDays(3650))
                .withRowGroupBytes(RowGroupSizing.parseEnv(System.getenv(RowGroupSizing.ENV)));
        long t0 = System.nanoTime();
        SweepReport report = CompactionWiring.sweepRunner(SweepSettings.of(copy.store(), opts).withPlanClock(LATER))
                .sweep(PartitionFilter.all(), r -> { });
        double secs = (System.nanoTime() - t0) / 1e9;
        if (report.hasErrors()) {
            throw new IOException("sweep failed: " + report);
        }
        return new Compacted(Fixtures.open(f.shape() + "-compacted", copy.root(), f.partition()), secs);
    }

    record Compacted(Fixture fixture, double sweepSeconds) {
    }

    static Instant hourStart() {
        return Fixtures.HOUR;
    }
}
