package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.testkit.Await;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable acknowledgement across SIGKILL: clients export to a real {@code ourios serve} (child JVM) while it is
 * killed at a random moment, again and again; after a restart replays the WAL, every acknowledged record is in the
 * store, and no record is there twice (recovery must never duplicate; the clients never retry, so any duplicate
 * would be the receiver's). A few kills in CI; {@code -Dourios.soak=true} for 20 (or
 * {@code -Dourios.soak.iterations=N}).
 */
class ServeIngestCrashTest {
    private static final long T0 = System.currentTimeMillis() * 1_000_000L;
    private static final int PER_REQUEST = 50;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    private static int kills() {
        String n = System.getProperty("ourios.soak.iterations");
        if (n != null) {
            return Integer.parseInt(n);
        }
        return Boolean.getBoolean("ourios.soak") ? 20 : 3;
    }

    private Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("OURIOS_COMPACTION_ENABLED", "false");
        env.put("OURIOS_INGEST_FLUSH_INTERVAL", "300ms");
        env.put("OURIOS_INGEST_FLUSH_BYTES", "256KiB");
        return env;
    }

    private static byte[] request(long firstSeq) {
        ScopeLogs.Builder scope = ScopeLogs.newBuilder();
        for (int i = 0; i < PER_REQUEST; i++) {
            long seq = firstSeq + i;
            scope.addLogRecords(io.opentelemetry.proto.logs.v1.LogRecord.newBuilder().setTimeUnixNano(T0 + seq)
                    .setSeverityNumberValue(9).setBody(AnyValue.newBuilder().setStringValue("seq-" + seq)));
        }
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(scope))
                .build().toByteArray();
    }

    @Test
    @Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
    void every_acknowledged_record_survives_sigkill_exactly_once() throws Exception {
        Path store = Files.createDirectories(dir.resolve("store"));
        Set<Long> acked = ConcurrentHashMap.newKeySet();
        AtomicLong nextSeq = new AtomicLong();
        Random random = new Random(7);
        int kills = kills();
        for (int k = 0; k < kills; k++) {
            try (DaemonProcess serve = DaemonProcess.start(dir, env(), "serve", "--store", store.toString(),
                    "--http", "127.0.0.1:0")) {
                String endpoint = "http://127.0.0.1:" + serve.ingestPort() + "/v1/logs";
                AtomicBoolean stop = new AtomicBoolean();
                List<Thread> clients = new ArrayList<>();
                for (int c = 0; c < 3; c++) {
                    Thread t = new Thread(() -> send(endpoint, nextSeq, acked, stop), "client-" + c);
                    t.start();
                    clients.add(t);
                }
                long before = acked.size();
                // Kill once this run has acknowledged something, at a random moment after that.
                Await.until("a first acknowledgement", Duration.ofSeconds(60), () -> acked.size() > before);
                Await.poll(Duration.ofMillis(100 + random.nextInt(1500)), () -> false); // a bounded random delay
                assertTrue(serve.kill9(), "killed");
                stop.set(true);
                for (Thread t : clients) {
                    t.join(Duration.ofSeconds(60).toMillis());
                }
            }
        }
        // Restart: the WAL replays; then SIGTERM flushes everything and exits 0.
        try (DaemonProcess serve = DaemonProcess.start(dir, env(), "serve", "--store", store.toString(),
                "--http", "127.0.0.1:0")) {
            serve.ingestPort();
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
        AcknowledgedSeqs.assertEachStoredOnce(store, acked, (long) kills * PER_REQUEST);
    }

    @Test
    void sigterm_stops_accepting_flushes_the_wal_and_exits_0() throws Exception {
        Path store = Files.createDirectories(dir.resolve("store"));
        Map<String, String> env = env();
        env.put("OURIOS_INGEST_FLUSH_INTERVAL", "1h"); // nothing is flushed before the SIGTERM
        env.put("OURIOS_INGEST_WAL_DIR", dir.resolve("wal").toString());
        Set<Long> acked = ConcurrentHashMap.newKeySet();
        try (DaemonProcess serve = DaemonProcess.start(dir, env, "serve", "--store", store.toString(),
                "--http", "127.0.0.1:0")) {
            String endpoint = "http://127.0.0.1:" + serve.ingestPort() + "/v1/logs";
            AtomicLong seq = new AtomicLong();
            for (int i = 0; i < 10; i++) {
                long first = seq.getAndAdd(PER_REQUEST);
                HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(endpoint))
                        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/x-protobuf")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(request(first))).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(200, r.statusCode());
                for (int k = 0; k < PER_REQUEST; k++) {
                    acked.add(first + k);
                }
            }
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
            assertTrue(serve.err().stream().anyMatch(l -> l.contains("ingest drained: every record flushed")),
                    String.join("\n", serve.err()));
        }
        try (var wal = java.nio.file.Files.list(dir.resolve("wal"))) {
            assertEquals(List.of(), wal.filter(p -> p.toString().endsWith(".wal")).toList(),
                    "every segment flushed and deleted");
        }
        try (LocalObjectStore s = new LocalObjectStore(store)) {
            QueryEngine q = new QueryEngine(s, new TableLayout(s), new TableReader(s, new ManifestCodec()),
                    MeterProvider.noop());
            assertEquals(acked.size(), q.count(Query.tenant("default")).rows());
        }
    }

    private static void send(String endpoint, AtomicLong nextSeq, Set<Long> acked, AtomicBoolean stop) {
        while (!stop.get()) {
            long first = nextSeq.getAndAdd(PER_REQUEST);
            try {
                HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(endpoint))
                        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/x-protobuf")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(request(first))).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() == 200) {
                    for (int i = 0; i < PER_REQUEST; i++) {
                        acked.add(first + i);
                    }
                }
            } catch (Exception e) {
                // The server died mid-request: not acknowledged, and never retried (a retry could duplicate).
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
            }
        }
    }
}
