package dev.ourios.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Uuid7;
import dev.ourios.ingest.flush.SegmentFlusher;
import dev.ourios.otlp.OtlpLogsDecoder;
import dev.ourios.ingest.quarantine.QuarantineReplay;
import dev.ourios.ingest.quarantine.SegmentQuarantine;
import dev.ourios.ingest.wal.WalEntry;
import dev.ourios.ingest.wal.WalListener;
import dev.ourios.ingest.wal.WriteAheadLog;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.Await;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A WAL segment whose flush cannot succeed is quarantined whole while other tenants' records keep landing, and a
 * replay after its cause is fixed lands it; a tenant id over the limit is refused before it reaches the WAL.
 */
class PoisonSegmentQuarantineTest {
    private static final long T0 = 1_785_000_000_000_000_000L;
    /** 84 three-byte characters: 252 bytes of UTF-8, 766 once the path component is percent-encoded. */
    private static final String LONG_TENANT = "\u20ac".repeat(84);

    @TempDir
    Path dir;

    private static byte[] request(String body) {
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0)
                        .setBody(AnyValue.newBuilder().setStringValue(body))))).build().toByteArray();
    }

    private static long count(QueryEngine engine, String tenant) {
        try {
            return engine.count(Query.tenant(tenant)).rows();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int quarantined(SegmentQuarantine q) {
        try {
            return q.list().size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void a_poison_segment_is_quarantined_while_other_tenants_land_and_a_replay_lands_it_once_fixed()
            throws Exception {
        Path walDir = dir.resolve("wal");
        // Segments the WAL accepted before the tenant limit existed, written by the WAL's own writer: one per
        // append (a seal size of one byte), in the order the flush loop will meet them.
        WriteAheadLog crafted = WriteAheadLog.open(walDir, 1, Duration.ofHours(1), Uuid7.system(), s -> { },
                WalListener.NONE);
        crafted.append(new WalEntry(LONG_TENANT, request("too long"))).get(30, TimeUnit.SECONDS);
        crafted.append(new WalEntry("blocked", request("blocked"))).get(30, TimeUnit.SECONDS);
        crafted.close();
        Path storeRoot = dir.resolve("store");
        // A file where the tenant's directory must be: no retry fixes it, an operator does.
        Files.createDirectories(storeRoot.resolve("data"));
        Path blocker = storeRoot.resolve("data/tenant_id=blocked");
        Files.writeString(blocker, "not a directory");

        LocalObjectStore store = new LocalObjectStore(storeRoot);
        QueryEngine engine = new QueryEngine(store, new TableLayout(store), new TableReader(store,
                new ManifestCodec()), MeterProvider.noop());
        IngestSettings settings = IngestSettings.defaults(new InetSocketAddress("127.0.0.1", 0), walDir)
                .withFlush(16L << 20, Duration.ofMillis(100));
        SegmentQuarantine quarantine = new SegmentQuarantine(walDir);
        try (Ingester ingester = Ingester.open(settings, store, new IngestMetrics(MeterProvider.noop()))) {
            IngestResult ok = ingester.ingest("acme", ExportLogsServiceRequest.parseFrom(request("fine")));
            assertEquals(200, ok.status());
            Await.until("the other tenant's record, behind two poison segments", Duration.ofSeconds(60),
                    () -> count(engine, "acme") == 1);
            Await.until("both poison segments quarantined", Duration.ofSeconds(30),
                    () -> quarantined(quarantine) == 2);
            // At the door, the same long id is refused before anything is stored.
            IngestResult refused = ingester.ingest(LONG_TENANT, ExportLogsServiceRequest.parseFrom(request("x")));
            assertEquals(400, refused.status());
            assertTrue(refused.errorMessage().contains("252 bytes of UTF-8; the limit is 81 bytes"),
                    refused.errorMessage());
            assertTrue(ingester.drain(Duration.ofSeconds(30)), "nothing is left behind a poison segment");
        }
        List<SegmentQuarantine.Entry> held = quarantine.list();
        assertTrue(held.get(0).reason().contains("name too long"), held.get(0).reason());
        assertTrue(held.get(1).reason().toLowerCase().contains("not a directory")
                || held.get(1).reason().contains("tenant_id=blocked"), held.get(1).reason());
        try (Stream<Path> left = Files.list(walDir)) {
            assertEquals(0, left.filter(p -> p.toString().endsWith(".wal")).count(), "moved, not copied");
        }

        // The operator removes the file in the way and replays: the blocked tenant lands, the long one stays.
        Files.delete(blocker);
        SegmentFlusher flusher = new SegmentFlusher(new IngestWriter(store), new TableReader(store,
                new ManifestCodec()), new OtlpLogsDecoder(), new IngestMetrics(MeterProvider.noop()));
        List<QuarantineReplay.Outcome> outcomes = new QuarantineReplay(quarantine, flusher).replayAll();
        assertEquals(List.of(false, true), outcomes.stream().map(QuarantineReplay.Outcome::replayed).toList());
        assertEquals(1, count(engine, "blocked"));
        assertEquals(1, quarantine.list().size());
        // A second replay lands nothing twice.
        new QuarantineReplay(quarantine, flusher).replayAll();
        assertEquals(1, count(engine, "blocked"));
        store.close();
    }
}
