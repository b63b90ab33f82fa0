package dev.ourios.server.otlp;

import dev.ourios.testkit.Await;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A measurement, not a check (skipped unless {@code -Dourios.ingest.probe=true}): {@code probe.clients} threads (8)
 * post 512-record OTLP protobuf requests to a receiver in this JVM for 15 s; prints acknowledged records/s, MiB/s,
 * ack latency p50/p99 and the WAL's fsyncs, then waits until every record is queryable ({@code probe.flush.ms}: the
 * flush interval, 2000). Client, receiver, flush and query share the machine's cores, so the numbers are a floor
 * for the receiver alone.
 */
class ThroughputProbeTest {
    @TempDir
    Path dir;

    @Test
    void probe() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Boolean.getBoolean("ourios.ingest.probe"),
                "a measurement; run with -Dourios.ingest.probe=true");
        int clients = Integer.getInteger("probe.clients", 8);
        long t0 = System.currentTimeMillis() * 1_000_000L;
        ScopeLogs.Builder scope = ScopeLogs.newBuilder();
        for (int i = 0; i < 512; i++) {
            scope.addLogRecords(io.opentelemetry.proto.logs.v1.LogRecord.newBuilder().setTimeUnixNano(t0 + i)
                    .setSeverityNumberValue(9).setSeverityText("INFO")
                    .setBody(AnyValue.newBuilder().setStringValue("GET /api/cart/" + i + " 200 in 12ms user=u" + (i % 50)))
                    .addAttributes(KeyValue.newBuilder().setKey("http.route").setValue(AnyValue.newBuilder().setStringValue("/api/cart")))
                    .addAttributes(KeyValue.newBuilder().setKey("n").setValue(AnyValue.newBuilder().setIntValue(i))));
        }
        byte[] body = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                        .setValue(AnyValue.newBuilder().setStringValue("cart")))).addScopeLogs(scope)).build().toByteArray();
        try (var f = IngestFixtureAccess.open(dir, IngestFixtureAccess.settings(dir).withFlush(16L << 20, Duration.ofMillis(Long.getLong("probe.flush.ms", 2000))))) {
            HttpClient http = HttpClient.newHttpClient();
            List<Long> lat = Collections.synchronizedList(new ArrayList<>());
            AtomicLong records = new AtomicLong();
            long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            List<Thread> ts = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                Thread t = new Thread(() -> {
                    while (System.nanoTime() < end) {
                        long s = System.nanoTime();
                        try {
                            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(f.endpoint()))
                                    .header("Content-Type", "application/x-protobuf")
                                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
                            if (r.statusCode() == 200) {
                                records.addAndGet(512);
                                lat.add(System.nanoTime() - s);
                            }
                        } catch (Exception e) {
                            return;
                        }
                    }
                });
                t.start();
                ts.add(t);
            }
            for (Thread t : ts) {
                t.join();
            }
            List<Long> l = new ArrayList<>(lat);
            Collections.sort(l);
            System.err.printf("PROBE clients %d body %d B/512 records: records/s %.0f, MiB/s %.1f, requests %d, p50 %.1f ms, p99 %.1f ms, syncs %d%n",
                    clients, body.length, records.get() / 15.0, l.size() * (double) body.length / 15 / (1 << 20), l.size(),
                    l.get(l.size() / 2) / 1e6, l.get(l.size() * 99 / 100) / 1e6, f.ingester().walSyncs());
            long n = records.get();
            Await.until("flushed", Duration.ofSeconds(120), () -> f.count("default") >= n);
        }
    }
}
