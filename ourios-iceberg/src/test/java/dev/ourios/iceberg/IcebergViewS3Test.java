package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.Query;
import dev.ourios.store.s3.S3ObjectStore;
import dev.ourios.store.s3.S3ProxyServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The view on a real S3-compatible server (s3proxy): versions published with {@code If-None-Match: *}, metadata and
 * data read back through ranged GETs, every value equal to what was written, through a compaction and GC.
 */
class IcebergViewS3Test {
    static final Instant START = Instant.parse("2026-07-01T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void syncsReadsAndRacesOnS3() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), START, 2, 3, 200, 11));
        try (S3ProxyServer s3 = S3ProxyServer.start()) {
            s3.createBucket("logs");
            // A store without a view: GC's retention answers (nothing retained) without error.
            try (ViewStore empty = new ViewStore(new S3ObjectStore(s3.config("logs", "empty")),
                    new StoreLocation("s3://logs/empty"), ViewLayout.DEFAULT)) {
                assertTrue(empty.view.table().isEmpty());
                assertTrue(!empty.retention().retained(Duration.ofMinutes(10), false).test("data/x.parquet"));
            }
            S3ObjectStore store = new S3ObjectStore(s3.config("logs", "prod"));
            try (ViewStore vs = new ViewStore(store, new StoreLocation("s3://logs/prod"), ViewLayout.DEFAULT)) {
                List<LogRecord> rows = new ArrayList<>();
                for (int h = 0; h < 2; h++) {
                    for (int f = 0; f < 3; f++) {
                        List<LogRecord> file = gen.file("acme", h, f);
                        vs.ingest(gen.partition("acme", h), file);
                        rows.addAll(file);
                    }
                }
                SyncResult first = vs.sync();
                assertEquals(6, first.filesAdded());
                assertTrue(store.stat("iceberg/logs/metadata/v1.metadata.json").isPresent());
                assertTrue(IcebergView.currentFiles(vs.table(), vs.location).keySet().stream()
                        .allMatch(k -> k.startsWith("data/tenant_id=acme/")));
                assertTrue(vs.table().currentSnapshot().allManifests(vs.table().io()).get(0).path()
                        .startsWith("s3://logs/prod/iceberg/logs/metadata/"));
                assertValues(vs, rows);

                vs.compact(dir.resolve("scratch"));
                SyncResult after = vs.sync();
                assertEquals(6, after.filesRemoved());
                assertEquals(2, after.filesAdded());
                assertValues(vs, rows);
                assertEquals(rows.size(), vs.ourCount(Query.tenant("acme")));
                vs.gc(Duration.ZERO, vs.retention());
                assertValues(vs, rows);

                // Create-only on S3: of two writers on one version, exactly one commits.
                StoreTableOperations a = vs.view.operations();
                StoreTableOperations b = vs.view.operations();
                TableMetadata baseA = a.current();
                TableMetadata baseB = b.current();
                a.commit(baseA, TableMetadata.buildFrom(baseA).setProperties(Map.of("writer", "a")).build());
                assertThrows(CommitFailedException.class, () -> b.commit(baseB,
                        TableMetadata.buildFrom(baseB).setProperties(Map.of("writer", "b")).build()));
                assertEquals("a", vs.table().properties().get("writer"));
            }
        }
    }

    private static void assertValues(ViewStore vs, List<LogRecord> rows) throws Exception {
        List<String> expected = rows.stream().map(ViewStore::fingerprint).sorted().toList();
        List<String> actual = vs.icebergRows(Expressions.alwaysTrue()).stream().map(ViewStore::fingerprint)
                .sorted().toList();
        assertEquals(expected, actual);
    }
}
