package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.CountingObjectStore;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.StoreRequests;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partial sync (the partitions a caller knows changed) reads and writes what those partitions need, whatever the
 * size of the store, and keeps the view exactly the live set: a full sync afterwards finds nothing to change, and a
 * view rebuilt from scratch equals it.
 */
class IcebergIncrementalSyncTest {
    static final Instant START = Instant.parse("2026-05-04T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void aPartialSyncCostsTheSameInAStoreFourTimesLarger() throws Exception {
        StoreRequests small = partialSyncOfOneChangedPartition(dir.resolve("small"), 2, 6);
        StoreRequests large = partialSyncOfOneChangedPartition(dir.resolve("large"), 4, 12);
        // Requests, not bytes: the manifest list and metadata grow with the table, the number of requests does not.
        assertEquals(small.list(), large.list(), "LISTs: " + small + " vs " + large);
        assertEquals(small.head(), large.head(), "HEADs: " + small + " vs " + large);
        assertEquals(small.get(), large.get(), "GETs: " + small + " vs " + large);
        assertEquals(small.put(), large.put(), "PUTs: " + small + " vs " + large);
    }

    /** The requests of a partial sync of the one partition that changed, in a store of tenants × hours partitions. */
    private StoreRequests partialSyncOfOneChangedPartition(Path root, int tenants, int hours) throws Exception {
        List<String> names = java.util.stream.IntStream.range(0, tenants).mapToObj(i -> "t" + i).toList();
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(names, START, hours, 2, 10, 7));
        try (ViewStore vs = new ViewStore(root)) {
            for (String t : names) {
                for (int h = 0; h < hours; h++) {
                    vs.ingest(gen.partition(t, h), gen.file(t, h, 0));
                }
            }
            assertEquals(tenants * hours, vs.sync().partitionsChanged());
            PartitionKey changed = gen.partition("t1", 3);
            vs.ingest(changed, gen.file("t1", 3, 1));

            CountingObjectStore counting = new CountingObjectStore(new LocalObjectStore(root));
            ViewStore counted = new ViewStore(counting, vs.location, ViewLayout.DEFAULT);
            SyncResult r = counted.sync(SyncScope.of(List.of(changed)));
            assertTrue(r.changed());
            assertFalse(r.full());
            assertEquals(1, r.partitionsRead());
            assertEquals(1, r.partitionsChanged());
            assertEquals(1, r.filesAdded());
            assertEquals(tenants * hours + 1, r.liveFiles());
            StoreRequests partial = counting.requests();
            assertEquals(vs.liveKeys(), List.copyOf(IcebergView.currentFiles(vs.table(), vs.location).keySet()));

            // The full reconciliation lists every partition: the partial sync's listings do not grow with the store.
            CountingObjectStore fullCount = new CountingObjectStore(new LocalObjectStore(root));
            SyncResult full = new ViewStore(fullCount, vs.location, ViewLayout.DEFAULT).sync();
            assertFalse(full.changed(), "the partial sync left nothing for a full one to do");
            assertEquals(tenants * hours, full.partitionsRead());
            assertTrue(fullCount.requests().list() > tenants * hours, fullCount.requests().toString());
            assertTrue(partial.list() < 5, partial.toString());
            return partial;
        }
    }

    @Test
    void partialSyncsOfWhatChangedKeepTheViewTheLiveSet() throws Exception {
        long seed = System.nanoTime();
        System.out.println("IcebergIncrementalSyncTest seed=" + seed);
        Random rnd = new Random(seed);
        List<String> tenants = List.of("a", "b", "c");
        int hours = 4;
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(tenants, START, hours, 40, 30, seed));
        int[] nextFile = new int[tenants.size() * hours];
        try (ViewStore vs = new ViewStore(dir.resolve("store"))) {
            for (int t = 0; t < tenants.size(); t++) {
                for (int h = 0; h < hours; h++) {
                    if (rnd.nextBoolean()) {
                        vs.ingest(gen.partition(tenants.get(t), h), gen.file(tenants.get(t), h, nextFile[t * hours + h]++));
                    }
                }
            }
            vs.sync();
            for (int step = 0; step < 10; step++) {
                int op = rnd.nextInt(4);
                Set<PartitionKey> touched = new TreeSet<>();
                String what;
                if (op <= 1) {
                    int files = 1 + rnd.nextInt(3);
                    for (int i = 0; i < files; i++) {
                        int t = rnd.nextInt(tenants.size());
                        int h = rnd.nextInt(hours);
                        PartitionKey p = gen.partition(tenants.get(t), h);
                        vs.ingest(p, gen.file(tenants.get(t), h, nextFile[t * hours + h]++));
                        touched.add(p);
                    }
                    what = "late files in " + touched;
                } else if (op == 2) {
                    SweepReport sweep = vs.compact(dir.resolve("scratch"));
                    touched.addAll(ViewStore.committed(sweep));
                    what = "a sweep committing " + touched;
                } else {
                    // GC deletes nothing a retained snapshot references, and nothing live: no partition changes.
                    vs.gc(Duration.ZERO, vs.retention());
                    what = "GC";
                }
                if (rnd.nextInt(3) == 0) {
                    // A partition that did not change is read and found equal.
                    touched.add(gen.partition(tenants.get(rnd.nextInt(tenants.size())), rnd.nextInt(hours)));
                }
                SyncResult r = vs.sync(SyncScope.of(touched));
                String msg = "seed " + seed + ", step " + step + " after " + what;
                assertEquals(touched.size(), r.partitionsRead(), msg);
                assertEquals(vs.liveKeys(), List.copyOf(IcebergView.currentFiles(vs.table(), vs.location).keySet()),
                        msg);
                assertEquals(vs.liveKeys().size(), r.liveFiles(), msg);
            }
            assertFalse(vs.sync().changed(), "seed " + seed + ": a full sync after the partial ones changes nothing");
            ViewStore rebuilt = vs.withView(new ViewLayout("iceberg/rebuilt/"));
            rebuilt.sync();
            assertEquals(IcebergViewAgreementTest.describe(rebuilt), IcebergViewAgreementTest.describe(vs),
                    "seed " + seed + ": a view rebuilt from scratch equals the incrementally synced one");
        }
    }

    @Test
    void aPartialScopeOnAStoreWithoutAViewSyncsEveryPartition() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("x"), START, 3, 2, 10, 11));
        try (ViewStore vs = new ViewStore(dir.resolve("fresh"))) {
            List<PartitionKey> all = new ArrayList<>();
            for (int h = 0; h < 3; h++) {
                vs.ingest(gen.partition("x", h), gen.file("x", h, 0));
                all.add(gen.partition("x", h));
            }
            SyncResult r = vs.sync(SyncScope.of(List.of(all.get(1))));
            assertTrue(r.full(), "the first snapshot holds every partition");
            assertEquals(3, r.partitionsRead());
            assertEquals(vs.liveKeys(), List.copyOf(IcebergView.currentFiles(vs.table(), vs.location).keySet()));
            SyncResult none = vs.sync(SyncScope.of(List.of()));
            assertFalse(none.changed());
            assertEquals(0, none.partitionsRead());
        }
    }
}
