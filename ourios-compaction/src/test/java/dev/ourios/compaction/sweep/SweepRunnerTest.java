package dev.ourios.compaction.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.TestStores;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.store.AtomicOutput;
import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sweep's schedule, on real stores and real files: GC over every partition first, then every partition planned,
 * then the candidates compacted oldest first, never more than {@code --concurrency} at once; a partition that fails
 * (at planning or while compacting) is reported by name and the others still compact.
 */
class SweepRunnerTest {
    private static final long WAIT_SECONDS = 30;

    @TempDir
    Path dir;

    private static final PartitionKey A0 = PartitionKey.ofHour("a", TestStores.HOUR);
    private static final PartitionKey A1 = PartitionKey.ofHour("a", TestStores.HOUR.plusSeconds(3600));
    private static final PartitionKey B0 = PartitionKey.ofHour("b", TestStores.HOUR);
    private static final PartitionKey B1 = PartitionKey.ofHour("b", TestStores.HOUR.plusSeconds(3600));

    @Test
    @Timeout(120)
    void gc_covers_every_partition_before_any_is_planned_and_all_are_planned_before_any_compacts() throws Exception {
        LocalObjectStore real = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(real, TestStores.spec(List.of("a", "b"), 2, 3, 20, 31));
        // A temp file a dead writer left in each partition, older than the GC grace: GC's work in that partition.
        Map<PartitionKey, String> stale = new TreeMap<>();
        for (PartitionKey p : List.of(A0, A1, B0, B1)) {
            String key = p.dataPrefix() + "." + Uuid7.system().next() + FileNames.PARQUET + ".tmp-1";
            real.put(key, "half a file".getBytes(StandardCharsets.UTF_8));
            Files.setLastModifiedTime(real.root().resolve(key), FileTime.from(Instant.now().minus(Duration.ofHours(1))));
            stale.put(p, key);
        }
        RecordingStore store = new RecordingStore(real);
        List<PartitionKey> completed = Collections.synchronizedList(new ArrayList<>());

        SweepReport report = TestStores.runner(store, dir.resolve("scratch"))
                .sweep(PartitionFilter.all(), r -> completed.add(r.partition()));

        assertEquals(4, report.count(PartitionResult.Result.COMMITTED), report.toString());
        List<String> events = store.events();
        int firstRun = -1;
        for (int i = 0; i < events.size() && firstRun < 0; i++) {
            String e = events.get(i);
            if (e.startsWith("open data/") || e.startsWith("create data/")) {
                firstRun = i;
            }
        }
        assertTrue(firstRun > 0, "no compaction read or wrote the store: " + events);
        int lastGcDelete = -1;
        for (Map.Entry<PartitionKey, String> e : stale.entrySet()) {
            int at = events.indexOf("delete " + e.getValue());
            assertTrue(at >= 0, "GC did not collect " + e.getKey() + ": " + events);
            assertTrue(at < firstRun, "GC of " + e.getKey() + " after a compaction began: " + events);
            lastGcDelete = Math.max(lastGcDelete, at);
        }
        for (PartitionKey p : List.of(A0, A1, B0, B1)) {
            int planned = -1;
            for (int i = lastGcDelete + 1; i < firstRun && planned < 0; i++) {
                if (events.get(i).equals("list " + p.dataPrefix())) {
                    planned = i;
                }
            }
            assertTrue(planned > lastGcDelete, p + " was not read (planned) between the end of GC and the first "
                    + "compaction: " + events);
        }
        // Concurrency 1: the candidates run one by one, oldest hour first, ties by tenant.
        assertEquals(List.of(A0, B0, A1, B1), completed);
        for (PartitionKey p : stale.keySet()) {
            assertEquals(List.of(), TestStores.snapshot(real, p).temps(), p + ": the stale temp file is gone");
        }
    }

    /**
     * Each compaction is held at its first input read until the test lets it go, so the partitions compacting at
     * once are counted while they are all in flight, not guessed from timings: a partition counts from its first
     * input read to its result.
     */
    @ParameterizedTest(name = "concurrency {0}")
    @ValueSource(ints = {1, 3})
    @Timeout(180)
    void never_more_than_concurrency_partitions_compact_at_once_and_the_bound_is_used(int concurrency)
            throws Exception {
        int partitions = 5;
        LocalObjectStore real = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(real, TestStores.spec(List.of("c"), partitions, 2, 20, 32));
        GatedStore store = new GatedStore(real);
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withConcurrency(concurrency);
        SweepRunner runner = TestStores.runner(store, dir.resolve("scratch"), opts, MeterProvider.noop());
        ExecutorService sweeper = Executors.newSingleThreadExecutor();
        try {
            Future<SweepReport> sweep = sweeper.submit(() -> runner.sweep(PartitionFilter.all(), store::finished));
            List<String> held = new ArrayList<>();
            for (int i = 0; i < concurrency; i++) {
                String p = store.arrivals.poll(WAIT_SECONDS, TimeUnit.SECONDS);
                assertNotNull(p, "only " + held.size() + " of " + concurrency + " partitions started: " + held);
                held.add(p);
            }
            assertEquals(concurrency, store.active.get(), "in flight while held: " + held);
            // The held partitions cannot finish, so with the bound reached nothing else may start; a runner that
            // ignored the bound would have started the others by now.
            assertNull(store.arrivals.poll(500, TimeUnit.MILLISECONDS), "a partition started beyond the bound");
            int started = concurrency;
            while (!held.isEmpty()) {
                store.release(held.remove(0));
                if (started < partitions) {
                    // The freed slot is taken by the next candidate, still within the bound.
                    String next = store.arrivals.poll(WAIT_SECONDS, TimeUnit.SECONDS);
                    assertNotNull(next, "no partition took the freed slot");
                    held.add(next);
                    started++;
                    assertTrue(store.active.get() <= concurrency, "in flight: " + store.active.get());
                }
            }
            SweepReport report = sweep.get(WAIT_SECONDS * 2, TimeUnit.SECONDS);
            assertEquals(partitions, report.count(PartitionResult.Result.COMMITTED), report.toString());
            assertEquals(concurrency, store.maxActive.get(), "most partitions compacting at once");
            assertEquals(0, store.active.get());
        } finally {
            store.openAll(); // a failed assertion must not leave compactions waiting on the gate
            sweeper.shutdownNow();
            assertTrue(sweeper.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS), "the sweep did not end");
        }
    }

    /**
     * The oldest partition, which runs first, holds a file that is not Parquet: its compaction fails, the sweep goes
     * on, the report says which partition failed and why, and the failed partition is left as it was.
     */
    @ParameterizedTest(name = "concurrency {0}")
    @ValueSource(ints = {1, 2})
    @Timeout(120)
    void a_partition_with_a_corrupt_input_fails_alone_and_the_report_names_it(int concurrency) throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("a", "b"), 2, 3, 20, 33));
        String corruptName = Uuid7.system().next() + FileNames.PARQUET;
        store.put(A0.dataPrefix() + corruptName, "PAR1 this is not a Parquet file".getBytes(StandardCharsets.UTF_8));
        Map<PartitionKey, List<String>> rowsBefore = new TreeMap<>();
        for (PartitionKey p : List.of(A1, B0, B1)) {
            rowsBefore.put(p, TestStores.identities(TestStores.liveRows(store, p)));
        }
        PartitionSnapshot badBefore = TestStores.snapshot(store, A0);
        List<PartitionResult> seen = Collections.synchronizedList(new ArrayList<>());
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withConcurrency(concurrency);

        SweepReport report = TestStores.runner(store, dir.resolve("scratch"), opts, MeterProvider.noop()).sweep(PartitionFilter.all(), seen::add);

        assertEquals(4, seen.size(), "one result per candidate: " + seen);
        assertEquals(4, report.partitions().size(), report.toString());
        assertEquals(1, report.count(PartitionResult.Result.ERROR), report.toString());
        assertEquals(3, report.count(PartitionResult.Result.COMMITTED), "the other partitions still compact");
        PartitionResult failed = only(report, PartitionResult.Result.ERROR);
        assertEquals(A0, failed.partition());
        assertTrue(failed.error().contains(A0.dataPrefix() + corruptName),
                "the error names the bad file in its partition: " + failed.error());
        assertTrue(report.hasErrors());
        assertEquals(PartitionResult.Result.ERROR, report.overall());
        assertEquals(List.of(), report.errors(), "the failure is the partition's, not the sweep's");

        PartitionSnapshot badAfter = TestStores.snapshot(store, A0);
        assertEquals(badBefore.live(), badAfter.live(), "the failed partition is unchanged");
        assertEquals(0, badAfter.generation());
        assertEquals(List.of(), badAfter.orphans(), "no output of the failed compaction was published");
        for (Map.Entry<PartitionKey, List<String>> e : rowsBefore.entrySet()) {
            PartitionSnapshot s = TestStores.snapshot(store, e.getKey());
            assertEquals(1, s.live().size(), e.getKey() + " compacted into one file");
            assertEquals(1, s.generation());
            assertEquals(e.getValue(), TestStores.identities(TestStores.liveRows(store, e.getKey())),
                    e.getKey() + ": the same rows");
        }
    }

    /**
     * A partition whose listing fails is reported once, as its own error (GC skipped it for the same reason, and
     * that is not reported a second time), and every other partition is collected, planned and compacted.
     */
    @Test
    @Timeout(120)
    void a_partition_that_cannot_be_listed_is_reported_once_and_the_others_still_compact() throws Exception {
        LocalObjectStore real = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(real, TestStores.spec(List.of("a", "b"), 2, 3, 20, 34));
        ObjectStore store = new ForwardingObjectStore(real) {
            @Override
            public List<ObjectInfo> listObjects(String dirPrefix) throws IOException {
                if (dirPrefix.equals(B0.dataPrefix())) {
                    throw new IOException("listing refused by the store");
                }
                return super.listObjects(dirPrefix);
            }

            @Override
            public void close() {
            }
        };
        List<PartitionResult> seen = Collections.synchronizedList(new ArrayList<>());

        SweepReport report = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), seen::add);

        assertEquals(1, report.count(PartitionResult.Result.ERROR), report.toString());
        assertEquals(3, report.count(PartitionResult.Result.COMMITTED), report.toString());
        PartitionResult failed = only(report, PartitionResult.Result.ERROR);
        assertEquals(B0, failed.partition());
        assertTrue(failed.error().contains("listing refused by the store"), failed.error());
        assertTrue(failed.error().contains(B0.hourPath()), failed.error());
        assertTrue(report.errors().stream().noneMatch(e -> e.contains("listing refused")),
                "one error line for the partition, not a second from GC: " + report.errors());
        assertEquals(4, seen.size(), seen.toString());
        assertEquals(PartitionResult.Result.ERROR, report.overall());
        for (PartitionKey p : List.of(A0, A1, B1)) {
            assertEquals(1, TestStores.snapshot(real, p).generation(), p + " committed");
        }
        assertEquals(0, TestStores.snapshot(real, B0).generation());
    }

    private static PartitionResult only(SweepReport report, PartitionResult.Result result) {
        List<PartitionResult> matching = report.partitions().stream().filter(r -> r.result() == result).toList();
        assertEquals(1, matching.size(), report.toString());
        return matching.get(0);
    }

    /** Records, in order, the store calls that tell the sweep's phases apart: listings, deletes, reads, writes. */
    private static final class RecordingStore extends ForwardingObjectStore {
        private final List<String> events = Collections.synchronizedList(new ArrayList<>());

        RecordingStore(ObjectStore delegate) {
            super(delegate);
        }

        List<String> events() {
            synchronized (events) {
                return List.copyOf(events);
            }
        }

        @Override
        public List<ObjectInfo> listObjects(String dirPrefix) throws IOException {
            events.add("list " + dirPrefix);
            return super.listObjects(dirPrefix);
        }

        @Override
        public void delete(String key) throws IOException {
            events.add("delete " + key);
            super.delete(key);
        }

        @Override
        public RandomAccessInput openRandomAccess(String key) throws IOException {
            events.add("open " + key);
            return super.openRandomAccess(key);
        }

        @Override
        public AtomicOutput create(String key) throws IOException {
            events.add("create " + key);
            return super.create(key);
        }

        @Override
        public void close() {
        }
    }

    /**
     * Holds each partition's compaction at its first read of an input file until {@link #release} (or
     * {@link #openAll}), and counts the partitions in flight: from that first read until {@link #finished} sees
     * the partition's result.
     */
    private static final class GatedStore extends ForwardingObjectStore {
        final BlockingQueue<String> arrivals = new LinkedBlockingQueue<>();
        final AtomicInteger active = new AtomicInteger();
        final AtomicInteger maxActive = new AtomicInteger();
        private final Set<String> started = ConcurrentHashMap.newKeySet();
        private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();
        private volatile boolean open;

        GatedStore(ObjectStore delegate) {
            super(delegate);
        }

        @Override
        public RandomAccessInput openRandomAccess(String key) throws IOException {
            String prefix = key.substring(0, key.lastIndexOf('/') + 1);
            String name = key.substring(prefix.length());
            if (key.startsWith(PartitionKey.DATA_ROOT) && FileNames.isIngestFile(name) && started.add(prefix)) {
                maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
                CountDownLatch gate = gate(prefix);
                arrivals.add(prefix);
                try {
                    if (!open && !gate.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                        throw new IOException("the test never released " + prefix);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while held");
                }
            }
            return super.openRandomAccess(key);
        }

        private CountDownLatch gate(String prefix) {
            return gates.computeIfAbsent(prefix, k -> new CountDownLatch(1));
        }

        void release(String prefix) {
            gate(prefix).countDown();
        }

        void openAll() {
            open = true;
            gates.values().forEach(CountDownLatch::countDown);
        }

        void finished(PartitionResult r) {
            if (started.contains(r.partition().dataPrefix())) {
                active.decrementAndGet();
            }
        }

        @Override
        public void close() {
        }
    }
}
