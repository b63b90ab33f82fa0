package dev.ourios.server.status;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPolicy;
import dev.ourios.core.Retention;
import dev.ourios.core.Uuid7;
import dev.ourios.ingest.IngestMetrics;
import dev.ourios.ingest.IngestSettings;
import dev.ourios.ingest.Ingester;
import dev.ourios.ingest.quarantine.SegmentQuarantine;
import dev.ourios.ingest.wal.WalEntry;
import dev.ourios.ingest.wal.WalListener;
import dev.ourios.ingest.wal.WriteAheadLog;
import dev.ourios.query.LiveFiles;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
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
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GET /v1/status reports the quarantine: acknowledged segments moved aside because their flush cannot succeed, by
 * count and bytes, so the store page shows what waits for an operator's replay.
 */
class StatusQuarantineTest {
    /** 84 three-byte characters: a partition directory name no file system takes. */
    private static final String LONG_TENANT = "\u20ac".repeat(84);

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void the_status_counts_the_quarantined_segments_and_their_bytes() throws Exception {
        Path walDir = dir.resolve("wal");
        // A segment the WAL holds from before the tenant limit, written by the WAL's own writer.
        WriteAheadLog crafted = WriteAheadLog.open(walDir, 1, Duration.ofHours(1), Uuid7.system(), s -> { },
                WalListener.NONE);
        crafted.append(new WalEntry(LONG_TENANT, ExportLogsServiceRequest.newBuilder().addResourceLogs(
                ResourceLogs.newBuilder().addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder()
                        .setTimeUnixNano(1_785_000_000_000_000_000L)
                        .setBody(AnyValue.newBuilder().setStringValue("held")))))
                .build().toByteArray())).get(30, TimeUnit.SECONDS);
        crafted.close();
        try (LocalObjectStore store = new LocalObjectStore(Files.createDirectories(dir.resolve("store")))) {
            TableLayout layout = new TableLayout(store);
            IngestSettings settings = IngestSettings.defaults(new InetSocketAddress("127.0.0.1", 0), walDir)
                    .withFlush(16L << 20, Duration.ofMillis(100));
            try (Ingester ingester = Ingester.open(settings, store, new IngestMetrics(MeterProvider.noop()))) {
                StatusEndpoint status = new StatusEndpoint(new StoreFigures(layout, new LiveFiles(store, layout,
                        new TableReader(store, new ManifestCodec())),
                        new CompactionPolicy(CompactionOptions.defaults(dir.resolve("scratch"))), Clock.systemUTC()),
                        new StatusEndpoint.Sweeps(false, Duration.ofMinutes(1), Optional.empty()),
                        Optional.of(ingester), Optional.empty(), Retention.NONE, Clock.systemUTC());
                Await.until("the poison segment quarantined", Duration.ofSeconds(30),
                        () -> held(ingester.quarantine()) == 1);
                Map<String, Object> ingest = (Map<String, Object>) status.document().get("ingest");
                assertEquals(1, ingest.get("quarantined_segments"));
                assertEquals(ingester.quarantine().list().get(0).bytes(), ingest.get("quarantined_bytes"));
            }
        }
    }

    private static int held(SegmentQuarantine q) {
        try {
            return q.list().size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
