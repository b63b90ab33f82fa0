package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.FileNames;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.HaltingObjectStore;
import dev.ourios.store.HaltingObjectStore.Step;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * RFC0009.4, crash safety: a real compactor process (a child JVM running {@link CompactorProcess}) dies by SIGKILL
 * at random moments, or halts at each named protocol step ({@link Step}, on a store that halts it). After every
 * death each partition still reads, at a clean generation, exactly the rows that were acknowledged; one ordinary
 * recovery sweep plus GC past the grace then leaves exactly one live file per partition and no debris.
 *
 * <p>Random kills: {@value #CI_ITERATIONS} child JVMs in CI; {@code -Dourios.soak=true} runs
 * {@value #SOAK_ITERATIONS} (or {@code -Dourios.soak.iterations=N}).
 */
class Rfc0009CrashTest {
    static final int CI_ITERATIONS = 6;
    static final int SOAK_ITERATIONS = 300;
    /** GC grace of the random-kill children: short, so later children find debris old enough to collect. */
    static final long CHILD_GC_GRACE_MILLIS = 1500;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Step.class, mode = EnumSource.Mode.EXCLUDE, names = "AFTER_SHARE_RECORD") // ProcessShareTest
    void rfc0009_4_halt_at_a_protocol_step_loses_no_row_and_recovery_reclaims_the_debris(Step point)
            throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        // Two partitions; enough rows that the sorted output outgrows what the mid-rewrite step lets through.
        GeneratorSpec spec = TestStores.spec(List.of("acme"), 2, 3, 500, 41);
        TestStores.generate(store, spec);
        StoreLedger ledger = new StoreLedger(store);
        long gcGrace = 60_000;
        if (point == Step.MID_GC) {
            // GC needs something to delete: compact everything once in-process (the inputs are retired, not yet
            // deleted), land late data so there is work after GC, and give the child a 1 ms grace.
            SweepReport first = TestStores.runner(store, dir.resolve("scratch0")).sweep(PartitionFilter.all(), r -> { });
            assertEquals(2, first.count(PartitionResult.Result.COMMITTED), first.toString());
            LogGenerator late = new LogGenerator(spec.withSeed(42));
            for (PartitionKey p : ledger.partitions()) {
                ledger.land(p, late.file(p.tenantId(), hourIndex(p), 0).subList(0, 20));
            }
            gcGrace = 1;
        }
        StoreLedger.Debris before = ledger.debris();

        CompactorChild child = CompactorChild.start(dir.resolve("store"), dir.resolve("scratch"), gcGrace, 1, false,
                Optional.of(point));
        int status = child.await(60_000);
        String ctx = point.label() + ", child said:\n" + child.output();
        assertEquals(HaltingObjectStore.HALT_STATUS, status, "the child must die at the armed point: " + ctx);

        ledger.assertRowsIntact("after a halt at " + ctx);
        StoreLedger.Debris after = ledger.debris();
        List<PartitionSnapshot> snaps = new ArrayList<>();
        for (PartitionKey p : ledger.partitions()) {
            snaps.add(TestStores.snapshot(store, p));
        }
        long committed = snaps.stream().filter(s -> s.generation() > 0).count();
        switch (point) {
            case MID_REWRITE -> {
                assertEquals(0, committed, ctx);
                assertEquals(1, after.temps(), "the partly written output is a temp file: " + ctx);
                PartitionSnapshot s = snaps.stream().filter(x -> !x.temps().isEmpty()).findFirst().orElseThrow();
                assertTrue(s.temps().get(0).size() > 4, "row groups reached the output file: " + s.temps());
            }
            case AFTER_OUTPUT_PUBLISHED -> {
                assertEquals(0, committed, ctx);
                assertEquals(1, after.orphans(), "the published but unnamed output is an orphan: " + ctx);
                PartitionSnapshot s = snaps.stream().filter(x -> !x.orphans().isEmpty()).findFirst().orElseThrow();
                List<LogRecord> orphanRows = TestStores.readAll(store, s.orphans().get(0).key());
                assertEquals(TestStores.identities(TestStores.liveRows(store, s.partition())),
                        TestStores.identities(orphanRows), "the orphan is complete, just invisible");
            }
            case AFTER_COMMIT -> {
                assertEquals(1, committed, ctx);
                PartitionSnapshot s = snaps.stream().filter(x -> x.generation() > 0).findFirst().orElseThrow();
                assertEquals(1, s.live().size(), ctx);
                assertTrue(FileNames.isCompactedFile(s.live().get(0).name()), ctx);
                assertEquals(3, s.retiredPresent().size(), "the inputs are retired, not deleted: " + ctx);
                assertEquals(0, auditedGenerations(store, s), "the crash lost the audit event: " + ctx);
            }
            case MID_GC -> {
                assertEquals(before.retired() - 1, after.retired(), "exactly one retired input deleted: " + ctx);
                assertTrue(snaps.stream().allMatch(s -> s.generation() == 1), "no compaction ran: " + ctx);
            }
        }

        ledger.converge(dir.resolve("scratch"));
        ledger.assertConverged("recovered from " + point.label());
    }

    @Test
    // Among the longest tests (1-2 minutes on a loaded 2-core machine): a bound above the 5 m default.
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void rfc0009_4_sigkill_at_random_moments_loses_no_row_and_recovery_converges() throws Exception {
        boolean soak = Boolean.getBoolean("ourios.soak");
        int iterations = Integer.getInteger("ourios.soak.iterations", soak ? SOAK_ITERATIONS : CI_ITERATIONS);
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        System.out.println("rfc0009_4 random kills: seed " + seed + ", " + iterations + " iterations");
        Random rnd = new Random(seed);
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        GeneratorSpec spec = TestStores.spec(List.of("acme", "beta"), 2, 4, 150, rnd.nextLong());
        TestStores.generate(store, spec);
        StoreLedger ledger = new StoreLedger(store);
        List<PartitionKey> partitions = ledger.partitions();

        // Kill within this many ms of the sweep start. A first, unkilled sweep calibrates it on this machine; any
        // later sweep that finishes before its kill re-calibrates it, and kills before any result stretch it.
        long window = calibrate(ledger);
        int killed = 0;
        int completed = 0;
        int sawTemp = 0;
        int sawOrphan = 0;
        int sawRetired = 0;
        int progressed = 0;
        long started = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            // Late data first, 1-2 files in every partition, so every child has one compaction per partition to do
            // and the commits spread over its sweep; these rows are acknowledged now.
            for (PartitionKey p : partitions) {
                for (int f = rnd.nextInt(2); f < 2; f++) {
                    LogGenerator late = new LogGenerator(spec.withSeed(rnd.nextLong()));
                    List<LogRecord> rows = late.file(p.tenantId(), hourIndex(p), 0);
                    ledger.land(p, rows.subList(0, 1 + rnd.nextInt(rows.size())));
                }
            }
            long generationsBefore = generations(ledger, store);
            int concurrency = 1 + rnd.nextInt(2);
            CompactorChild child = CompactorChild.start(dir.resolve("store"), dir.resolve("scratch"),
                    CHILD_GC_GRACE_MILLIS, concurrency, true, Optional.empty());
            String ctx = "seed " + seed + " iteration " + i;
            assertTrue(child.awaitSweep(60_000), ctx + ": child never started its sweep:\n" + child.output());
            // Stratified: iteration i kills at a random moment inside slice (i mod slices) of the window, so even the
            // six CI kills spread over the whole sweep instead of clustering by chance.
            int slices = Math.min(iterations, 10);
            long delay = (long) (window * ((i % slices) + rnd.nextDouble()) / slices);
            Thread.sleep(delay); // a deliberate delay, not a wait for anything: the random moment of the kill
            boolean wasAlive = child.kill();
            System.out.println("rfc0009_4 iteration " + i + ": kill at " + delay + " ms; child got to "
                    + child.output().lines().filter(l -> l.startsWith("RESULT") || l.startsWith("DONE")).toList());
            Optional<Long> took = child.sweepMillis();
            if (wasAlive && took.isEmpty()) {
                killed++;
            } else {
                completed++;
            }
            if (took.isPresent()) {
                window = Math.max(50, took.get() * 5 / 4); // aim the next kills inside a sweep this long
            } else if (child.output().lines().noneMatch(l -> l.startsWith("RESULT"))) {
                // Died before any partition finished: sweeps may run longer here now (load), so stretch the window
                // until a sweep completes again and re-calibrates it.
                window = window * 11 / 10;
            }
            ledger.assertRowsIntact(ctx + " (killed " + delay + " ms into the sweep, concurrency " + concurrency
                    + ", child output:\n" + child.output() + ")");
            progressed += generations(ledger, store) > generationsBefore ? 1 : 0;
            StoreLedger.Debris d = ledger.debris();
            sawTemp += d.temps() > 0 ? 1 : 0;
            sawOrphan += d.orphans() > 0 ? 1 : 0;
            sawRetired += d.retired() > 0 ? 1 : 0;
        }
        double secs = (System.nanoTime() - started) / 1e9;
        System.out.printf("rfc0009_4 random kills: %d iterations in %.1f s, %d killed mid-sweep, %d completed first, %d"
                + " committed something before dying; debris seen after a kill: temp %d, orphan %d, retired %d;"
                + " kill window %d ms%n", iterations, secs, killed, completed, progressed, sawTemp, sawOrphan,
                sawRetired, window);
        ledger.converge(dir.resolve("scratch"));
        ledger.assertConverged("seed " + seed + ": recovered after " + iterations + " kills");
        // Reported, not asserted: local scratch is cache, not truth, and nothing collects it yet.
        List<Path> elsewhere = ledger.tempFilesAnywhere();
        long scratchLeft;
        try (var entries = java.nio.file.Files.list(dir.resolve("scratch"))) {
            scratchLeft = entries.count();
        }
        System.out.println("rfc0009_4 random kills: after recovery, " + elsewhere.size() + " temp file(s) outside"
                + " partitions " + elsewhere + ", " + scratchLeft + " entr(ies) left in the local scratch dir");
    }

    /** One sweep run to completion in a child: how long a sweep takes here, and a baseline that must exit 0. */
    private long calibrate(StoreLedger ledger) throws Exception {
        CompactorChild child = CompactorChild.start(dir.resolve("store"), dir.resolve("scratch"),
                CHILD_GC_GRACE_MILLIS, 1, true, Optional.empty());
        assertEquals(0, child.await(120_000), child.output());
        ledger.assertRowsIntact("after an uninterrupted sweep");
        return Math.max(50, child.sweepMillis().orElseThrow() * 5 / 4);
    }

    private static long generations(StoreLedger ledger, LocalObjectStore store) throws Exception {
        long sum = 0;
        for (PartitionKey p : ledger.partitions()) {
            sum += TestStores.snapshot(store, p).generation();
        }
        return sum;
    }

    private static int hourIndex(PartitionKey p) {
        return (int) java.time.Duration.between(TestStores.HOUR, p.hourStart()).toHours();
    }

    private static int auditedGenerations(LocalObjectStore store, PartitionSnapshot s) throws Exception {
        var c = s.manifest().orElseThrow().commitRecord().orElseThrow().complete().orElseThrow();
        AuditEvent ev = new AuditEvent(s.partition(), c.at(), c.inputs(), c.output(), s.generation(), c.rows());
        return new AuditLog(store, Path.of("unused")).exists(ev) ? 1 : 0;
    }
}
