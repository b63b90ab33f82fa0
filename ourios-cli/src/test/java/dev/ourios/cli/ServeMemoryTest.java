package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many concurrent maximal queries over wide rows against {@code serve} under a 512 MiB heap: every client gets a
 * complete JSON answer or a JSON 429/503, the server stays up, and no {@code OutOfMemoryError} appears. Clients
 * that are refused come back after {@code Retry-After}, as a well-behaved client does, so every one of them is
 * answered in the end.
 */
class ServeMemoryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int CLIENTS = 40;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void forty_concurrent_maximal_queries_over_64_kib_rows_fit_in_512_mib() throws Exception {
        String store = dir.resolve("s").toString();
        // 1,600 rows of 64 KiB bodies: about 100 MiB of rows, far more than a response may hold.
        var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "1", "--files-per-hour", "4", "--rows-per-file", "400",
                "--body-bytes", "65536");
        assertEquals(0, gen.exit(), gen.err());
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_INGEST_ENABLED", "false"), "serve", "--store", store, "--http", "127.0.0.1:0")) {
            serve.port();
            Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
            AtomicInteger complete = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> clients = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofMinutes(6).toNanos();
            for (int i = 0; i < CLIENTS; i++) {
                Thread t = new Thread(() -> {
                    try {
                        go.await();
                        while (System.nanoTime() < deadline) {
                            HttpResponse<String> r = serve.post("/v1/query", "acme", "{\"limit\":10000}");
                            statuses.computeIfAbsent(r.statusCode(), k -> new AtomicInteger()).incrementAndGet();
                            JsonNode body = JSON.readTree(r.body()); // complete JSON, whatever the status
                            if (r.statusCode() == 200) {
                                assertTrue(body.get("rows").size() > 0, "rows");
                                assertTrue(body.get("truncated").asBoolean(), "16 MiB cannot hold 100 MiB of rows");
                                assertEquals("max_response_bytes", body.get("truncated_by").asText());
                                assertTrue(body.has("cursor") && body.has("stats"));
                                complete.incrementAndGet();
                                return;
                            }
                            assertTrue(r.statusCode() == 429 || r.statusCode() == 503, r.statusCode() + " "
                                    + r.body());
                            assertEquals(r.statusCode(), body.get("error").get("status").asInt());
                            long wait = Long.parseLong(r.headers().firstValue("Retry-After").orElseThrow());
                            Thread.sleep(TimeUnit.SECONDS.toMillis(wait)); // the protocol's pause, not a sync
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                t.start();
                clients.add(t);
            }
            go.countDown();
            for (Thread t : clients) {
                t.join(Duration.ofMinutes(7).toMillis());
            }
            if (failure.get() != null) {
                throw new AssertionError("a client got something other than JSON 200/429/503 (" + statuses + ")",
                        failure.get());
            }
            assertEquals(CLIENTS, complete.get(), "every client answered in the end: " + statuses);
            assertTrue(statuses.getOrDefault(429, new AtomicInteger()).get() > 0, "the slots refused some: "
                    + statuses);
            assertEquals(200, serve.get("/healthz", null).statusCode(), "the server is up");
            assertFalse(String.join("\n", serve.err()).contains("OutOfMemoryError"), "no OOM");
            System.out.println("ServeMemoryTest: " + CLIENTS + " clients, statuses " + statuses);
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
            assertFalse(String.join("\n", serve.err()).contains("OutOfMemoryError"), "no OOM");
        }
    }
}
