package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.CountingObjectStore;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.StoreRequests;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opt-in ({@code -Dourios.big=true}): the cost of a sync after one partition changed in a store of 1,000
 * partitions, full and by scope (only the changed partition), against the first sync of the whole store. Prints
 * each sync's time and store requests (local calls counted as the S3 requests they would be); asserts only what
 * was synced.
 */
class IcebergSyncScaleTest {
    @TempDir
    Path dir;

    /** One sync and the store requests it made. */
    private record Measured(SyncResult result, StoreRequests requests) {
        @Override
        public String toString() {
            return String.format("%.2f s, %d LIST %d HEAD %d GET (%d KiB) %d PUT", result.elapsed().toNanos() / 1e9,
                    requests.list(), requests.head(), requests.get(), requests.getBytes() / 1024, requests.put());
        }
    }

    @FunctionalInterface
    private interface SyncCall {
        SyncResult run() throws Exception;
    }

    private static Measured measure(CountingObjectStore counting, SyncCall call) throws Exception {
        StoreRequests before = counting.requests();
        SyncResult r = call.run();
        return new Measured(r, counting.requests().minus(before));
    }

    @Test
    void oneChangedPartitionOfAThousand() throws Exception {
        assumeTrue(Boolean.getBoolean("ourios.big"), "opt-in: -Dourios.big=true");
        int tenants = 10;
        int hours = 100;
        List<String> names = java.util.stream.IntStream.range(0, tenants).mapToObj(i -> "t" + i).toList();
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(names, Instant.parse("2026-01-01T00:00:00Z"), hours, 2,
                20, 3));
        CountingObjectStore counting = new CountingObjectStore(new LocalObjectStore(dir));
        try (ViewStore vs = new ViewStore(counting, StoreLocation.local(dir), ViewLayout.DEFAULT)) {
            for (String t : names) {
                for (int h = 0; h < hours; h++) {
                    vs.ingest(gen.partition(t, h), gen.file(t, h, 0));
                }
            }
            Measured first = measure(counting, vs::sync);
            assertEquals(tenants * hours, first.result().partitionsChanged());
            vs.ingest(gen.partition("t3", 57), gen.file("t3", 57, 1));
            Measured one = measure(counting, vs::sync);
            assertEquals(1, one.result().partitionsChanged());
            assertEquals(1, one.result().filesAdded());
            Measured none = measure(counting, vs::sync);
            assertFalse(none.result().changed());

            // The same change synced by scope: only the partition that changed is read.
            PartitionKey q = gen.partition("t6", 21);
            vs.ingest(q, gen.file("t6", 21, 1));
            Measured scopedOne = measure(counting, () -> vs.sync(SyncScope.of(List.of(q))));
            assertEquals(1, scopedOne.result().partitionsRead());
            assertEquals(1, scopedOne.result().filesAdded());
            Measured scopedNone = measure(counting, () -> vs.sync(SyncScope.of(List.of(q))));
            assertFalse(scopedNone.result().changed());
            assertFalse(vs.sync().changed(), "the partial sync left the view exactly the live set");
            System.out.printf("iceberg sync of %d partitions:%n  first: %s%n  full, one changed: %s%n"
                    + "  full, none changed: %s%n  by scope, one changed: %s%n  by scope, none changed: %s%n",
                    tenants * hours, first, one, none, scopedOne, scopedNone);
        }
    }
}
