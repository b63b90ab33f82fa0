package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.LogSchema;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.table.ingest.IngestWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Schema evolution from files' extra columns, and writers racing for one table version. */
class IcebergViewEvolutionTest {
    static final Instant START = Instant.parse("2026-05-01T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void aTenantsFilesGainingExtraColumnsEvolveTheSchema() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), START, 2, 2, 150, 5));
        try (ViewStore vs = new ViewStore(dir)) {
            PartitionKey p0 = gen.partition("acme", 0);
            vs.ingest(p0, gen.file("acme", 0, 0));
            assertEquals(List.of(), vs.sync().columnsAdded());
            assertNull(vs.table().schema().findField("attr.http.status"));

            SortedMap<String, PrimitiveType> extras = new TreeMap<>(Map.of(
                    "attr.http.status", LogSchema.int64Column("attr.http.status"),
                    "attr.region", LogSchema.stringColumn("attr.region")));
            List<LogRecord> withExtras = new ArrayList<>();
            int i = 0;
            for (LogRecord r : gen.file("acme", 0, 1)) {
                withExtras.add(copy(r).extra("attr.http.status", 200L + (i % 5)).extra("attr.region",
                        i % 3 == 0 ? null : "eu-" + (i % 2)).build());
                i++;
            }
            new IngestWriter(vs.store, Uuid7.system(), WriterOptions.ingest().withExtras(extras)).writeFile(p0,
                    withExtras);
            SyncResult evolved = vs.sync();
            assertEquals(List.of("attr.http.status", "attr.region"), evolved.columnsAdded());
            String mapping = vs.table().properties().get(TableProperties.DEFAULT_NAME_MAPPING);
            assertTrue(NameMappingParser.fromJson(mapping).find("attr.region") != null, mapping);

            List<Record> rows = vs.icebergRows(Expressions.equal("tenant_id", "acme"));
            assertEquals(300, rows.size());
            Map<String, String> expected = new TreeMap<>();
            withExtras.forEach(r -> expected.put(ViewStore.fingerprint(r),
                    r.extras().get("attr.http.status") + "/" + r.extras().get("attr.region")));
            int seen = 0;
            for (Record r : rows) {
                String extra = expected.get(ViewStore.fingerprint(r));
                String actual = r.getField("attr.http.status") + "/" + r.getField("attr.region");
                if (extra != null) {
                    assertEquals(extra, actual);
                    seen++;
                } else {
                    assertEquals("null/null", actual, "rows of files without the columns read them as null");
                }
            }
            assertEquals(150, seen);

            // The same name with another type in another partition: refused, nothing committed.
            int version = vs.view.operations().version();
            SortedMap<String, PrimitiveType> conflicting = new TreeMap<>(Map.of(
                    "attr.region", LogSchema.int64Column("attr.region")));
            List<LogRecord> bad = gen.file("acme", 1, 0).stream()
                    .map(r -> copy(r).extra("attr.region", 7L).build()).toList();
            String badKey = new IngestWriter(vs.store, Uuid7.system(), WriterOptions.ingest().withExtras(conflicting))
                    .writeFile(gen.partition("acme", 1), bad).key();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, vs::sync);
            assertTrue(e.getMessage().contains(badKey) && e.getMessage().contains("'attr.region'"), e.getMessage());
            assertEquals(version, vs.view.operations().version());
        }
    }

    @Test
    void ofTwoWritersOnOneVersionExactlyOneWins() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), START, 1, 1, 50, 6));
        try (ViewStore vs = new ViewStore(dir)) {
            vs.ingest(gen.partition("acme", 0), gen.file("acme", 0, 0));
            vs.sync();
            StoreTableOperations a = vs.view.operations();
            StoreTableOperations b = vs.view.operations();
            TableMetadata baseA = a.current();
            TableMetadata baseB = b.current();
            a.commit(baseA, TableMetadata.buildFrom(baseA).setProperties(Map.of("writer", "a")).build());
            assertThrows(CommitFailedException.class,
                    () -> b.commit(baseB, TableMetadata.buildFrom(baseB).setProperties(Map.of("writer", "b")).build()));
            assertEquals("a", vs.table().properties().get("writer"));
            assertEquals(2, vs.view.operations().version());
        }
    }

    @Test
    void concurrentSyncersAllFinishAndTheViewIsTheLiveSet() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("a", "b"), START, 3, 4, 40, 7));
        try (ViewStore vs = new ViewStore(dir)) {
            int syncers = 3;
            int rounds = 4;
            CyclicBarrier barrier = new CyclicBarrier(syncers + 1);
            ExecutorService pool = Executors.newFixedThreadPool(syncers);
            List<Future<Integer>> results = new ArrayList<>();
            for (int s = 0; s < syncers; s++) {
                results.add(pool.submit(() -> {
                    int attempts = 0;
                    for (int r = 0; r < rounds; r++) {
                        barrier.await();
                        attempts += vs.sync().attempts();
                    }
                    return attempts;
                }));
            }
            int attempts = 0;
            for (int r = 0; r < rounds; r++) {
                for (String t : List.of("a", "b")) {
                    for (int h = 0; h < 3; h++) {
                        vs.ingest(gen.partition(t, h), gen.file(t, h, r));
                    }
                }
                barrier.await();
            }
            for (Future<Integer> f : results) {
                attempts += f.get();
            }
            pool.shutdown();
            System.out.println("concurrent syncers: " + attempts + " attempts for " + syncers * rounds + " syncs");
            vs.sync();
            assertEquals(new StoreLiveSet(vs.layout, vs.tables).files().keySet(),
                    IcebergView.currentFiles(vs.table(), vs.location).keySet());
            assertEquals(2 * 3 * 4 * 40, vs.icebergRows(Expressions.alwaysTrue()).size());
        }
    }

    @Test
    void aPlannedFileGoneBeforeItsFooterIsReadMakesTheSyncPlanAgain() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), START, 1, 3, 30, 8));
        java.util.concurrent.atomic.AtomicReference<String> vanish = new java.util.concurrent.atomic.AtomicReference<>();
        // Deletes the chosen object on its first ranged open, as GC would after a commit the sync did not see.
        dev.ourios.store.ObjectStore racing = new dev.ourios.store.ForwardingObjectStore(
                new dev.ourios.store.LocalObjectStore(dir)) {
            @Override
            public dev.ourios.store.RandomAccessInput openRandomAccess(String key) throws java.io.IOException {
                if (key.equals(vanish.get())) {
                    vanish.set(null);
                    delegate.delete(key);
                }
                return delegate.openRandomAccess(key);
            }
        };
        try (ViewStore vs = new ViewStore(racing, StoreLocation.local(dir), ViewLayout.DEFAULT)) {
            List<String> keys = new ArrayList<>();
            for (int f = 0; f < 3; f++) {
                keys.add(vs.ingest(gen.partition("acme", 0), gen.file("acme", 0, f)));
            }
            vanish.set(keys.get(1));
            SyncResult r = vs.sync();
            assertEquals(2, r.attempts());
            assertEquals(2, r.filesAdded());
            assertEquals(new StoreLiveSet(vs.layout, vs.tables).files().keySet(),
                    IcebergView.currentFiles(vs.table(), vs.location).keySet());
            assertEquals(60, vs.icebergRows(Expressions.alwaysTrue()).size());
        }
    }

    static LogRecord.Builder copy(LogRecord r) {
        return LogRecord.builder(r.tenantId()).templateId(r.templateId()).templateVersion(r.templateVersion())
                .timeUnixNano(r.timeUnixNano()).observedTimeUnixNano(r.observedTimeUnixNano())
                .severityNumber(r.severityNumber()).severityText(r.severityText()).scopeName(r.scopeName())
                .scopeVersion(r.scopeVersion()).attributes(r.attributes()).resourceAttributes(r.resourceAttributes())
                .traceId(r.traceId()).spanId(r.spanId()).flags(r.flags()).bodyKind(r.bodyKind()).body(r.body())
                .params(r.params()).separators(r.separators()).confidence(r.confidence()).lossyFlag(r.lossyFlag())
                .serviceName(r.serviceName());
    }
}
