package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.Await;
import dev.ourios.testkit.LandingLedger;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One round of the RFC0009.3 test on a fresh one-partition store: a compactor thread sweeps the partition again
 * and again, a writer thread lands late ingest files into it, and a querier thread counts it over and over, through
 * the {@link QueryEngine} and through a raw read of the live set ({@link TableReader#snapshot} plus
 * {@link LogFileReader}). Every count is judged by a {@link LandingLedger}.
 *
 * <p>With {@code gcGraceZero}, GC with a zero grace runs after every sweep, so the inputs a count planned on are
 * deleted right after the commit that retired them: the querier must re-resolve (once). A zero grace breaks the
 * protocol's assumption that the grace outlives a query plan, so a count may then fail when a file vanishes a
 * second time, or the manifest it listed is collected before it is read; it may never be wrong. Such failures are
 * counted, not hidden. The writer and that GC share a lock only because a zero grace would otherwise collect the
 * writer's in-flight temp file, which a real grace protects.
 */
final class ConcurrencyRound {
    /** Counts, commits and races seen in one round. */
    record Stats(long engineCounts, long rawCounts, long engineReResolves, long rawReResolves,
            long vanishFailures, long commits, long gcDeleted, int lateFiles, long finalRows, double seconds) {
    }

    private final Path root;
    private final boolean gcGraceZero;
    private final long seed;
    private final Random rnd;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Queue<String> failures = new ConcurrentLinkedQueue<>();
    private final ReentrantLock landingOrGc = new ReentrantLock();
    private final AtomicLong engineCounts = new AtomicLong();
    private final AtomicLong rawCounts = new AtomicLong();
    private final AtomicLong engineReResolves = new AtomicLong();
    private final AtomicLong rawReResolves = new AtomicLong();
    private final AtomicLong vanishFailures = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong gcDeleted = new AtomicLong();

    private LocalObjectStore store;
    private PartitionKey partition;
    private GeneratorSpec spec;
    private LandingLedger<PartitionKey, LogRecord> ledger;

    ConcurrencyRound(Path root, boolean gcGraceZero, long seed) {
        this.root = root;
        this.gcGraceZero = gcGraceZero;
        this.seed = seed;
        this.rnd = new Random(seed);
    }

    /**
     * Runs for at least {@code minMillis} and until the minimums are met (a few commits and counts, and with a zero
     * grace at least one count that survived a vanished file), but never longer than {@code maxMillis}.
     *
     * @return the stats, and every failure message (empty when every count was right)
     */
    Stats run(long minMillis, long maxMillis, List<String> failuresOut) throws Exception {
        store = new LocalObjectStore(root.resolve("store"));
        spec = TestStores.spec(List.of("t"), 1, 4, 300, rnd.nextLong());
        TestStores.generate(store, spec);
        partition = PartitionKey.ofHour("t", TestStores.HOUR);
        ledger = new LandingLedger<>(TestStores::identity);
        ledger.addBase(partition, TestStores.liveRows(store, partition));

        long started = System.nanoTime();
        List<Thread> threads = List.of(thread("compactor", this::compactLoop), thread("writer", this::writeLoop),
                thread("querier", this::queryLoop));
        threads.forEach(Thread::start);
        // Until a failure, or the minimums are met once minMillis have passed; at most maxMillis.
        Await.poll(Duration.ofMillis(maxMillis), () -> stop.get() || !failures.isEmpty()
                || ((System.nanoTime() - started) / 1_000_000 >= minMillis && minimumsMet()));
        stop.set(true);
        for (Thread t : threads) {
            t.join(120_000);
            if (t.isAlive()) {
                failures.add(t.getName() + " did not stop");
            }
        }
        double secs = (System.nanoTime() - started) / 1e9;
        failuresOut.addAll(failures);
        long finalRows = TestStores.liveRows(store, partition).size();
        return new Stats(engineCounts.get(), rawCounts.get(), engineReResolves.get(), rawReResolves.get(),
                vanishFailures.get(), commits.get(), gcDeleted.get(), ledger.completed(), finalRows, secs);
    }

    boolean minimumsMet() {
        boolean base = commits.get() >= 3 && engineCounts.get() >= 5 && rawCounts.get() >= 5;
        return base && (!gcGraceZero || engineReResolves.get() >= 1);
    }

    private Thread thread(String name, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failures.add(name + " failed (seed " + seed + "): " + e);
                stop.set(true);
            }
        }, "rfc0009_3-" + name);
        t.setDaemon(true);
        return t;
    }

    @FunctionalInterface
    private interface Body {
        void run() throws Exception;
    }

    private void compactLoop() throws Exception {
        Path scratch = root.resolve("scratch");
        CompactionOptions opts = CompactionOptions.defaults(scratch).withMinFiles(1);
        SweepRunner runner = TestStores.runner(store, scratch, opts, MeterProvider.noop());
        GarbageCollector gcZero = new GarbageCollector(store, new TableLayout(store),
                new TableReader(store, new ManifestCodec()), new GcOptions(Duration.ZERO, false), Clock.systemUTC());
        while (!stop.get()) {
            SweepReport report = runner.sweep(PartitionFilter.all(), r -> { });
            if (report.hasErrors()) {
                failures.add("sweep failed (seed " + seed + "): " + report);
                stop.set(true);
                return;
            }
            commits.addAndGet(report.count(PartitionResult.Result.COMMITTED));
            if (gcGraceZero) {
                landingOrGc.lock();
                try {
                    gcDeleted.addAndGet(gcZero.run(PartitionFilter.all()).deletedKeys().size());
                } finally {
                    landingOrGc.unlock();
                }
            }
        }
    }

    private void writeLoop() throws Exception {
        IngestWriter writer = new IngestWriter(store);
        Random r = new Random(rnd.nextLong());
        while (!stop.get()) {
            LogGenerator gen = new LogGenerator(spec.withSeed(r.nextLong()));
            List<LogRecord> file = gen.file("t", 0, 0);
            List<LogRecord> rows = ledger.claim(partition, file.subList(0, 5 + r.nextInt(36)));
            int late = ledger.beginLate(partition, rows);
            landingOrGc.lock();
            try {
                writer.writeFile(partition, rows);
            } finally {
                landingOrGc.unlock();
            }
            ledger.completeLate(late);
            // Deliberate pacing, not a wait for anything: a few landings per sweep rather than a flood of them.
            Thread.sleep(2 + r.nextInt(15));
        }
    }

    private void queryLoop() throws Exception {
        VanishCountingStore probed = new VanishCountingStore(store, Duration.ofMillis(2));
        QueryEngine engine = new QueryEngine(probed, new TableLayout(probed),
                new TableReader(probed, new ManifestCodec()), MeterProvider.noop());
        TableReader reader = new TableReader(store, new ManifestCodec());
        for (long n = 0; !stop.get(); n++) {
            boolean viaEngine = n % 2 == 0;
            int completedBefore = ledger.completed();
            long vanishedBefore = probed.vanished();
            List<String> ids;
            try {
                ids = viaEngine ? engineCount(engine) : rawCount(reader);
            } catch (IOException e) {
                if (gcGraceZero && causedByVanish(e)) {
                    vanishFailures.incrementAndGet();
                    continue;
                }
                throw e;
            }
            int startedAfter = ledger.started();
            LandingLedger.Verdict verdict = ledger.judge(partition, ids, completedBefore, startedAfter);
            if (!verdict.clean()) {
                failures.add((viaEngine ? "QueryEngine" : "raw live-set read") + " count " + n + " (seed " + seed
                        + ", gc grace " + (gcGraceZero ? "0" : "default") + "): " + verdict);
                stop.set(true);
                return;
            }
            if (viaEngine) {
                engineCounts.incrementAndGet();
                if (probed.vanished() > vanishedBefore) {
                    engineReResolves.incrementAndGet();
                }
            } else {
                rawCounts.incrementAndGet();
            }
        }
    }

    private static List<String> engineCount(QueryEngine engine) throws IOException {
        List<String> ids = new ArrayList<>();
        engine.run(Query.tenant("t"), r -> ids.add(TestStores.identity(r)));
        return ids;
    }

    /** The live set read directly, re-resolved once if a planned file vanished (as the querier does). */
    private List<String> rawCount(TableReader reader) throws IOException {
        for (int attempt = 1; ; attempt++) {
            PartitionSnapshot s = reader.snapshot(partition);
            try {
                List<String> ids = new ArrayList<>();
                for (ObjectInfo o : s.live()) {
                    try (LogFileReader r = LogFileReader.open(store, o.key(), ReadOptions.all())) {
                        for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                            ids.add(TestStores.identity(rec));
                        }
                    }
                }
                if (attempt > 1) {
                    rawReResolves.incrementAndGet();
                }
                return ids;
            } catch (IOException e) {
                if (attempt >= 2 || !causedByVanish(e)) {
                    throw e;
                }
            }
        }
    }

    private static boolean causedByVanish(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof NoSuchObjectException) {
                return true;
            }
        }
        return false;
    }
}
