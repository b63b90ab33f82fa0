package dev.ourios.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Retention;
import dev.ourios.otlp.Rejection;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ingest path refuses, record by record through partial success, every record whose hour is already past the
 * tenant's retention (by the ingester's clock), and stores the rest; a tenant without retention keeps everything.
 */
class IngesterRetentionTest {
    private static final Instant NOW = Instant.parse("2026-11-10T12:00:00Z");

    @TempDir
    Path dir;

    private static LogRecord at(Instant t, long observed, String body) {
        long nanos = t == null ? 0 : t.getEpochSecond() * 1_000_000_000L + t.getNano();
        return LogRecord.newBuilder().setTimeUnixNano(nanos).setObservedTimeUnixNano(observed)
                .setBody(AnyValue.newBuilder().setStringValue(body)).build();
    }

    @Test
    void recordsOlderThanTheTenantsRetentionAreRefusedAndTheRestStored() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        Retention retention = Retention.of(Duration.ofDays(1)).withTenant("forever-ish", Duration.ofDays(3650));
        IngestSettings settings = IngestSettings.defaults(new InetSocketAddress("127.0.0.1", 0), dir.resolve("wal"))
                .withFlush(16L << 20, Duration.ofMillis(100));
        Instant fresh = NOW.minus(Duration.ofHours(2));
        // The hour 09:00-10:00 of the day before ends exactly one day before 10:00 today: expired at 12:00.
        Instant stale = NOW.minus(Duration.ofDays(1)).minus(Duration.ofHours(3));
        long freshObserved = fresh.getEpochSecond() * 1_000_000_000L;
        ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .addScopeLogs(ScopeLogs.newBuilder()
                        .addLogRecords(at(fresh, 0, "fresh"))
                        .addLogRecords(at(stale, 0, "stale"))
                        .addLogRecords(at(null, freshObserved, "observed-only"))
                        .addLogRecords(at(stale, freshObserved, "stale-time-fresh-observed"))))
                .build();
        try (Ingester ingester = Ingester.open(settings, store, new IngestMetrics(MeterProvider.noop()), retention,
                Clock.fixed(NOW, ZoneOffset.UTC))) {
            IngestResult r = ingester.ingest("acme", req);
            assertEquals(200, r.status());
            assertEquals(2, r.accepted(), "the time field decides, observed time only when time is 0");
            assertEquals(List.of(Rejection.RETENTION_EXPIRED, Rejection.RETENTION_EXPIRED),
                    r.rejections().stream().map(Rejection::reason).toList());
            assertTrue(r.errorMessage().contains("older than the retention of tenant 'acme' (1d)"), r.errorMessage());
            assertTrue(r.errorMessage().contains("(and 1 more rejected)"), r.errorMessage());

            IngestResult kept = ingester.ingest("forever-ish", req);
            assertEquals(4, kept.accepted(), "a tenant's own retention overrides the default");
            assertTrue(ingester.drain(Duration.ofSeconds(30)));
        }
        QueryEngine engine = new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                MeterProvider.noop());
        assertEquals(List.of("fresh", "observed-only"), engine.collect(Query.tenant("acme")).rows().stream()
                .map(x -> new String(x.body(), java.nio.charset.StandardCharsets.UTF_8)).sorted().toList());
        assertEquals(4, engine.count(Query.tenant("forever-ish")).rows());
    }
}
