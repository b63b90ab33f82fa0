package dev.ourios.chaos;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.LandingLedger;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crash loop. Generates the base data, then per iteration: lands late files (one before the child starts so
 * it has work, more while it runs), starts a real CLI child and kills it (see {@link ChildKind}), and afterwards
 * reads every partition whole against the ledger. Query loops count partitions the whole time. Finally a
 * converging sweep that folds every tail into its hour and a GC past every grace must leave one live file per
 * partition and no debris.
 */
final class ChaosRun {
    private static final Logger LOG = LoggerFactory.getLogger(ChaosRun.class);
    /** The generated hours; children plan as of a month later, so every hour is sealed. */
    static final Instant FIRST_HOUR = Instant.parse("2026-11-01T10:00:00Z");
    private static final String PLAN_NOW = "2026-12-01T00:00:00Z";
    private static final long CHILD_TIMEOUT_MILLIS = 180_000;

    private final ChaosConfig config;
    private final ObjectStore store;
    private final LandingLedger<PartitionKey, LogRecord> ledger = new LandingLedger<>(RowIdentity::of);
    private final Tally tally = new Tally();
    private final StoreInspector inspector;
    private final PartitionReads reads;

    ChaosRun(ChaosConfig config, ObjectStore store) {
        this.config = config;
        this.store = store;
        this.inspector = new StoreInspector(store, config.work().resolve("scratch"));
        this.reads = new PartitionReads(store);
    }

    ChaosReport run() throws IOException, InterruptedException {
        if (!inspector.isEmpty()) {
            throw new IllegalArgumentException("--store " + config.store() + " holds data: the chaos run kills "
                    + "compactors and collects garbage in it, so it needs an empty directory or prefix");
        }
        long started = System.nanoTime();
        Random random = new Random(config.seed());
        GeneratorSpec spec = new GeneratorSpec(config.tenants(), FIRST_HOUR, config.hours(), config.filesPerHour(),
                config.rowsPerFile(), 15, random.nextLong(), 0);
        generate(spec);
        LateWriter writer = new LateWriter(new IngestWriter(store), ledger, tally, spec);

        // An unkilled sweep first: compacts the base data and measures how long a sweep's work takes here.
        long window = calibrate();
        long gcWindow = calibrateGc();

        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> loops = new ArrayList<>();
        for (int q = 0; q < config.queryThreads(); q++) {
            Thread t = new Thread(new QueryLoop(reads, ledger, tally, random.nextLong(), running), "chaos-query-" + q);
            t.setDaemon(true);
            t.start();
            loops.add(t);
        }
        try {
            for (int i = 0; i < config.iterations(); i++) {
                ChildKind kind = ChildKind.forIteration(i, config.haltEvery(), random);
                writer.land(1, random);
                Random lateRandom = new Random(random.nextLong());
                // Not during a zero-grace GC: it would collect the writer's in-flight temp file (a real grace
                // protects it), and the halted child's one delete could be exactly that.
                int more = kind == ChildKind.HALT_MID_GC ? 0 : random.nextInt(3);
                Thread late = new Thread(() -> landQuietly(writer, more, lateRandom), "chaos-late-writer");
                late.start();
                Optional<Long> took = runChild(kind, window, gcWindow, random);
                late.join();
                if (took.isPresent() && kind == ChildKind.SIGKILL_COMPACT) {
                    window = Math.max(50, took.get() * 5 / 4); // aim the next kills inside a sweep this long
                }
                checkAll("after iteration " + i + " (" + kind.label() + ")");
                if ((i + 1) % 10 == 0) {
                    LOG.warn("chaos: {} of {} iterations, {} rows checked, {} violations", i + 1,
                            config.iterations(), tally.rowsChecked.get(), tally.violations().size());
                }
            }
        } finally {
            running.set(false);
            for (Thread t : loops) {
                t.join(60_000);
            }
        }
        boolean converged = converge();
        checkAll("after the final sweep and GC");
        Debris debris = inspector.debris();
        double secs = (System.nanoTime() - started) / 1e9;
        return new ChaosReport(config.store(), config.seed(), config.iterations(), secs, tally.kills(),
                tally.rowsChecked.get(), tally.queryCounts.get(), tally.fullChecks.get(), tally.lateFiles.get(),
                tally.lateRows.get(), tally.torn.get(), tally.lost.get(), tally.duplicated.get(), tally.unknown.get(),
                tally.failedQueries.get(), debris, converged, tally.violations());
    }

    private void landQuietly(LateWriter writer, int count, Random random) {
        try {
            writer.land(count, random);
        } catch (Exception e) {
            tally.violation("late writer failed: " + e);
        }
    }

    private void generate(GeneratorSpec spec) throws IOException {
        LogGenerator gen = new LogGenerator(spec);
        IngestWriter w = new IngestWriter(store);
        for (String t : spec.tenants()) {
            for (int h = 0; h < spec.hours(); h++) {
                PartitionKey p = gen.partition(t, h);
                for (int f = 0; f < spec.filesPerHour(); f++) {
                    List<LogRecord> claimed = ledger.claim(p, gen.file(t, h, f));
                    w.writeFile(p, claimed);
                    ledger.addBase(p, claimed);
                }
            }
        }
    }

    /** Runs one child of {@code kind} to its death; the sweep's duration if it finished before its kill. */
    private Optional<Long> runChild(ChildKind kind, long window, long gcWindow, Random random)
            throws IOException, InterruptedException {
        if (kind == ChildKind.SIGKILL_GC) {
            CliChild child = CliChild.start(config.childClasspath(), Optional.empty(), "gc:", gcArgs(
                    config.childGcGrace().toSeconds() + "s"));
            Thread.sleep(gcWindow / 2 + random.nextLong(gcWindow / 2 + 1));
            tally.kill(kind.label(), child.kill());
            return Optional.empty();
        }
        if (kind.crashPoint().isPresent()) {
            // mid-gc needs something to delete: a zero GC grace makes every retired input collectable at once. The
            // child halts right after its first delete, so a reader re-resolves at most once.
            // A halt child folds tails into their hours (max tail ratio 0), so the one late file landed before it
            // makes a candidate to halt in; the killed children below run the tiered default.
            String gcGrace = kind == ChildKind.HALT_MID_GC ? "0s" : config.childGcGrace().toSeconds() + "s";
            CliChild child = CliChild.start(config.childClasspath(), kind.crashPoint(), "gc:",
                    foldingCompactArgs(gcGrace, 1 + random.nextInt(2)));
            int status = child.await(CHILD_TIMEOUT_MILLIS);
            tally.kill(kind.label(), status == CliChild.HALTED);
            if (status != CliChild.HALTED && status != 0 && status != 1) {
                tally.violation(kind.label() + ": child exited " + status + ":\n" + child.output());
            }
            return Optional.empty();
        }
        CliChild child = CliChild.start(config.childClasspath(), Optional.empty(), "gc:",
                compactArgs(config.childGcGrace().toSeconds() + "s", 1 + random.nextInt(2)));
        if (!child.awaitMarker(CHILD_TIMEOUT_MILLIS)) {
            child.kill();
            tally.violation("compact child never finished its GC step:\n" + child.output());
            return Optional.empty();
        }
        long markedAt = System.nanoTime();
        Thread.sleep(random.nextLong(window));
        boolean alive = child.kill();
        tally.kill(kind.label(), alive);
        return alive ? Optional.empty() : Optional.of((System.nanoTime() - markedAt) / 1_000_000);
    }

    // (8 KiB row groups: every output has several, so a kill mid-rewrite leaves a partly written temp file.)

    /** One unkilled sweep; returns the kill window (its work after GC, plus a quarter). */
    private long calibrate() throws IOException, InterruptedException {
        CliChild child = CliChild.start(config.childClasspath(), Optional.empty(), "gc:",
                compactArgs(config.childGcGrace().toSeconds() + "s", 1));
        if (!child.awaitMarker(CHILD_TIMEOUT_MILLIS)) {
            throw new IllegalStateException("the calibration sweep never finished its GC step:\n" + child.output());
        }
        long markedAt = System.nanoTime();
        int status = child.await(CHILD_TIMEOUT_MILLIS);
        if (status != 0) {
            throw new IllegalStateException("the calibration sweep failed (exit " + status + "):\n" + child.output());
        }
        checkAll("after the calibration sweep");
        return Math.max(50, (System.nanoTime() - markedAt) / 1_000_000 * 5 / 4);
    }

    /** One unkilled {@code gc}; returns its whole run time (mostly JVM start), the window of gc kills. */
    private long calibrateGc() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        CliChild child = CliChild.start(config.childClasspath(), Optional.empty(), "gc:",
                gcArgs(config.childGcGrace().toSeconds() + "s"));
        int status = child.await(CHILD_TIMEOUT_MILLIS);
        if (status != 0) {
            throw new IllegalStateException("the calibration gc failed (exit " + status + "):\n" + child.output());
        }
        return Math.max(50, (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * Recovery as an operator runs it: one sweep, then GC with no grace (every reader has stopped). The sweep folds
     * tails into their hours ({@code --max-tail-ratio 0}), so the end state is one live file per partition whatever
     * tails the killed children left.
     */
    private boolean converge() throws IOException, InterruptedException {
        CliChild sweep = CliChild.start(config.childClasspath(), Optional.empty(), "gc:",
                foldingCompactArgs("10m", 1));
        int s = sweep.await(CHILD_TIMEOUT_MILLIS);
        if (s != 0) {
            tally.violation("the converging sweep exited " + s + ":\n" + sweep.output());
            return false;
        }
        CliChild gc = CliChild.start(config.childClasspath(), Optional.empty(), "gc:", gcArgs("0s"));
        int g = gc.await(CHILD_TIMEOUT_MILLIS);
        if (g != 0) {
            tally.violation("the final gc exited " + g + ":\n" + gc.output());
            return false;
        }
        return true;
    }

    /** Reads every partition whole (no writer is running) and judges it: exactly the acknowledged rows. */
    private void checkAll(String context) throws IOException {
        int done = ledger.completed();
        List<PartitionKey> present = inspector.partitions();
        if (!present.equals(ledger.partitions())) {
            tally.violation(context + ": partitions " + present + ", expected " + ledger.partitions());
        }
        for (PartitionKey p : ledger.partitions()) {
            try {
                tally.fullChecks.incrementAndGet();
                tally.record(context + ", " + p, ledger.judge(p, reads.identities(p), done, done));
            } catch (IOException | RuntimeException e) {
                tally.failedQueries.incrementAndGet();
                tally.violation(context + ": reading " + p + " failed: " + e.getMessage());
            }
        }
    }

    private List<String> compactArgs(String gcGrace, int concurrency) {
        // Hour partitions only: the inspector's invariants are an hour's (one live file, its commit's audit event);
        // the rollup's crash protocol has its own kill tests (RollupCrashTest).
        List<String> a = new ArrayList<>(List.of("compact", "--store", config.store(), "--once", "--now", PLAN_NOW,
                "--no-rollup", "--min-files", "1", "--gc-grace", gcGrace, "--row-group-bytes", "8192",
                "--concurrency", Integer.toString(concurrency),
                "--scratch", config.work().resolve("scratch").toString()));
        config.s3Endpoint().ifPresent(e -> a.addAll(List.of("--s3-endpoint", e)));
        return a;
    }

    /** {@link #compactArgs} with every tail folded into its hour ({@code --max-tail-ratio 0}). */
    private List<String> foldingCompactArgs(String gcGrace, int concurrency) {
        List<String> a = compactArgs(gcGrace, concurrency);
        a.addAll(List.of("--max-tail-ratio", "0"));
        return a;
    }

    private List<String> gcArgs(String grace) {
        List<String> a = new ArrayList<>(List.of("gc", "--store", config.store(), "--grace", grace));
        config.s3Endpoint().ifPresent(e -> a.addAll(List.of("--s3-endpoint", e)));
        return a;
    }
}
