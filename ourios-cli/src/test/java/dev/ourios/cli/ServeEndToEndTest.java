package dev.ourios.cli;

import dev.ourios.server.query.RecordJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ourios.testkit.Await;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios serve} as a real child process over real HTTP: queries while a sweep commits, SIGTERM mid-sweep,
 * the 4xx contract, readiness, and the store afterwards.
 */
class ServeEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int HOURS = 6;
    private static final int FILES = 8;
    private static final int ROWS = 250;

    @TempDir
    Path dir;

    @Test
    // Among the longest tests (1-2 minutes on a loaded 2-core machine): a bound above the 5 m default.
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void queries_during_a_sweep_are_never_torn_and_sigterm_mid_sweep_drains_to_exit_0() throws Exception {
        String store = dir.resolve("s").toString();
        var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", String.valueOf(HOURS), "--files-per-hour", String.valueOf(FILES),
                "--rows-per-file", String.valueOf(ROWS));
        assertEquals(0, gen.exit(), gen.err());

        int perHour = FILES * ROWS;
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_HTTP_MAX_ROWS", "100000"),
                // The read throttle stretches the sweep to seconds per partition, so SIGTERM lands mid-sweep however
                // fast the machine is.
                "serve", "--store", store, "--http", "127.0.0.1:0", "--interval", "1h", "--no-rollup",
                "--max-read-rate", "64KiB")) {
            serve.port();
            serve.awaitEvent("ourios.compaction.sweep.start", Duration.ofSeconds(60));
            // Query every hour, over and over, while the sweep rewrites and commits them: each answer must be exactly
            // the hour's rows, whether it read the ingest files or the compacted one, and a query in flight when
            // SIGTERM arrives is still answered in full.
            AtomicBoolean stopping = new AtomicBoolean();
            AtomicInteger answered = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread queries = new Thread(() -> {
                for (int hour = 0; !stopping.get(); hour++) {
                    try {
                        assertHourComplete(serve, hour % HOURS, perHour);
                        answered.incrementAndGet();
                    } catch (java.io.IOException e) {
                        if (!stopping.get()) {
                            failure.set(e);
                        }
                        return; // sent after the server stopped listening: expected once stopping
                    } catch (Throwable e) {
                        // Once SIGTERM is sent the server refuses new requests with 503 while it drains: expected.
                        if (!(stopping.get() && String.valueOf(e.getMessage()).contains("but was: <503>"))) {
                            failure.set(e);
                        }
                        return;
                    }
                }
            });
            queries.start();
            serve.awaitEvent("ourios.compaction.partition.committed", Duration.ofMinutes(3));
            // A cold client and server take about as long for the first answer as the sweep for its first commit:
            // SIGTERM waits for one answer, so the drain is tested with queries flowing (the sweep has hours left).
            Await.until("a query answered during the sweep", Duration.ofSeconds(60),
                    () -> answered.get() > 0 || failure.get() != null);
            stopping.set(true);
            int exit = serve.terminate();
            queries.join(60_000);
            if (failure.get() != null) {
                throw new AssertionError("a query during the sweep failed", failure.get());
            }
            assertTrue(answered.get() > 0, "queries answered during the sweep");
            List<String> err = serve.err();
            assertEquals(0, exit, String.join("\n", err));

            List<JsonNode> events = new ArrayList<>();
            for (String l : err) {
                JsonNode n = JSON.readTree(l); // every stderr line is one JSON event
                for (String f : List.of("Timestamp", "SeverityText", "SeverityNumber", "Body", "Attributes")) {
                    assertTrue(n.has(f), f + " in " + l);
                }
                events.add(n);
            }
            List<String> names = events.stream().map(e -> e.get("EventName").asText()).toList();
            int draining = names.indexOf("ourios.serve.draining");
            int sweepEnd = names.indexOf("ourios.compaction.sweep.end");
            assertTrue(draining >= 0 && sweepEnd > draining, "SIGTERM arrived mid-sweep: " + String.join("\n", err));
            assertEquals("ourios.serve.stopped", names.get(names.size() - 1), names.toString());
            assertTrue(names.contains("ourios.query.served"), names.toString());
            assertTrue(names.indexOf("ourios.compaction.partition.committed")
                    < names.indexOf("ourios.compaction.sweep.end"), names.toString());
            long committed = names.stream().filter("ourios.compaction.partition.committed"::equals).count();
            assertTrue(committed >= 1 && committed < HOURS, "the drain started no new partition: " + names);
        }

        // The next sweep compacts the rest; GC with no grace then leaves exactly the live set: no debris.
        var next = CliProcess.run(dir, "compact", "--store", store, "--once", "--no-rollup", "--json");
        assertEquals(0, next.exit(), next.err());
        assertEquals(0, CliProcess.run(dir, "gc", "--store", store, "--grace", "0s").exit());
        var verify = CliProcess.run(dir, "verify", "--store", store);
        assertEquals(0, verify.exit(), verify.out() + verify.err());
        var files = CliProcess.run(dir, "files", "--store", store, "--tenant", "acme");
        assertEquals(0, files.exit(), files.err());
        Set<String> live = new TreeSet<>(files.outLines());
        assertEquals(HOURS, live.size(), live.toString());
        try (Stream<Path> s = Files.walk(dir.resolve("s/data"))) {
            Set<String> onDisk = s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString()
                    .startsWith("manifest.")).map(Path::toString).collect(Collectors.toCollection(TreeSet::new));
            assertEquals(live, onDisk, "only live files remain after the next sweep and GC");
        }
        var q = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--stats", "--json",
                "--limit", "1");
        JsonNode stats = JSON.readTree(q.outLines().get(q.outLines().size() - 1)).get("stats");
        assertEquals(1, stats.get("rows").asLong());
    }

    private static void assertHourComplete(DaemonProcess serve, int hour, int expected) throws Exception {
        String from = String.format("2026-11-01T%02d:00:00Z", 10 + hour);
        String to = String.format("2026-11-01T%02d:00:00Z", 11 + hour);
        HttpResponse<String> r = serve.post("/v1/query", "acme",
                "{\"from\":\"" + from + "\",\"to\":\"" + to + "\",\"order\":\"oldest_first\"}");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode body = JSON.readTree(r.body());
        assertEquals(expected, body.get("rows").size(), "rows of hour " + from);
        assertEquals(expected, body.get("stats").get("rows").asLong());
        HttpResponse<String> c = serve.post("/v1/query", "acme",
                "{\"from\":\"" + from + "\",\"to\":\"" + to + "\",\"count\":true,\"limit\":1}");
        assertEquals(200, c.statusCode(), c.body());
        assertEquals(expected, JSON.readTree(c.body()).get("count").asLong(), "count of hour " + from + ": " + c.body());
        assertFalse(JSON.readTree(c.body()).has("rows"), c.body());
        java.time.Instant previous = java.time.Instant.MIN;
        for (JsonNode row : body.get("rows")) {
            for (String field : RecordJson.FIELD_OF_COLUMN.values()) {
                assertTrue(row.has(field), "an HTTP row shows every stored column; no '" + field + "' in " + row);
            }
            java.time.Instant t = java.time.Instant.parse(row.get("time").asText()); // the effective time
            assertFalse(t.isBefore(previous), "oldest first");
            previous = t;
        }
    }

    @Test
    void http_contract_readiness_and_sigterm_with_compaction_off() throws Exception {
        Path store = Files.createDirectories(dir.resolve("mounted"));
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_HTTP_MAX_BODY_BYTES", "1KiB"), "serve", "--store", store.toString(), "--http", "127.0.0.1:0")) {
            assertEquals(200, serve.get("/healthz", null).statusCode());
            assertEquals(200, serve.get("/readyz", null).statusCode());
            // The volume goes away after start (serve refuses a missing store at start): not ready until it is back.
            Path away = Files.move(store, dir.resolve("unmounted"));
            HttpResponse<String> notReady = serve.get("/readyz", null);
            assertEquals(503, notReady.statusCode(), notReady.body());
            assertTrue(notReady.body().contains("mounted"), notReady.body());
            assertFalse(notReady.body().contains(dir.toString()), "no server path in a response: " + notReady.body());
            // The query endpoints agree with readiness: an unreadable store is 503, never 200 with no rows.
            HttpResponse<String> unreadable = serve.post("/v1/query", "acme", "{}");
            assertError(unreadable, 503, null);
            assertTrue(unreadable.headers().firstValue("Retry-After").isPresent());
            assertError(serve.get("/v1/files", "acme"), 503, null);
            Files.move(away, store);
            assertEquals(200, serve.get("/readyz", null).statusCode());

            // Without keys and without a tenant header a request acts for the tenant "default", as on the OTLP port.
            assertEquals(200, serve.post("/v1/query", null, "{}").statusCode());
            assertError(serve.post("/v1/query", "acme", "{\"limit\":"), 400, null);
            assertError(serve.post("/v1/query", "acme", "[1]"), 400, null);
            assertError(serve.post("/v1/query", "acme", "{\"limt\":3}"), 400, "limt");
            assertError(serve.post("/v1/query", "acme", "{\"from\":\"yesterday\"}"), 400, "from");
            assertError(serve.post("/v1/query", "acme", "{\"severity_min\":25}"), 400, "severity_min");
            assertError(serve.post("/v1/query", "acme", "{\"trace_id\":\"abc\"}"), 400, "trace_id");
            assertError(serve.post("/v1/query", "acme", "{\"order\":\"sideways\"}"), 400, "order");
            assertError(serve.post("/v1/query", "acme", "{\"limit\":1,\"limit\":2}"), 400, null);
            assertError(serve.post("/v1/query", "acme", "{\"contains\":\"" + "x".repeat(2000) + "\"}"), 413, null);
            assertError(serve.get("/v1/query", "acme"), 405, null);
            assertError(serve.get("/v1/files?from=now", "acme"), 400, "from");
            assertError(serve.get("/v1/files?tenant=acme", "acme"), 400, "tenant");
            assertEquals(200, serve.get("/v1/files", null).statusCode());
            assertError(serve.get("/v1/files", "t%zz"), 400, "X-Ourios-Tenant");
            assertError(serve.get("/nope", null), 404, null);

            HttpResponse<String> unknown = serve.post("/v1/query", "nobody", "{}");
            assertEquals(200, unknown.statusCode(), unknown.body());
            assertEquals(0, JSON.readTree(unknown.body()).get("rows").size());
            assertEquals(0, JSON.readTree(unknown.body()).get("stats").get("rows").asLong());
            HttpResponse<String> noFiles = serve.get("/v1/files", "nobody");
            assertEquals("{\"files\":[]}", noFiles.body());

            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
            assertFalse(serve.err().stream().anyMatch(l -> l.contains("compaction.sweep")), "compaction was off");
        }
    }

    private static void assertError(HttpResponse<String> r, int status, String field) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertEquals(status, e.get("status").asInt(), r.body());
        assertFalse(e.get("message").asText().isBlank(), r.body());
        if (field != null) {
            assertEquals(field, e.get("field").asText(), r.body());
            assertTrue(e.get("message").asText().contains(field), r.body());
        }
    }

    @Test
    void compact_daemon_exits_0_on_sigterm_after_its_sweep() throws Exception {
        String store = dir.resolve("s").toString();
        assertEquals(0, CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "1", "--files-per-hour", "3", "--rows-per-file", "50").exit());
        try (DaemonProcess compact = DaemonProcess.start(dir, Map.of(), "compact", "--store", store,
                "--interval", "1h", "--json")) {
            compact.awaitLine(true, l -> l.startsWith("{\"summary\""), Duration.ofSeconds(60));
            assertEquals(0, compact.terminate(), String.join("\n", compact.err()));
            assertEquals("committed", JSON.readTree(compact.out().get(0)).get("result").asText());
        }
    }

    @Test
    void a_bad_configuration_stops_serve_at_start_naming_the_key() throws Exception {
        Path cfg = dir.resolve("ourios.yaml");
        Files.writeString(cfg, "compaction:\n  grace: 15x\n");
        var r = CliProcess.run(dir, Map.of(), "serve", "--config", cfg.toString(), "--http", "127.0.0.1:0");
        assertEquals(2, r.exit(), r.err());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("compaction.grace"), r.err());

        var env = CliProcess.run(dir, Map.of("OURIOS_COMPACTION_CONCURRENCY", "0"), "serve", "--http",
                "127.0.0.1:0");
        assertEquals(2, env.exit(), env.err());
        assertTrue(env.err().contains("compaction.concurrency (env OURIOS_COMPACTION_CONCURRENCY)"), env.err());
    }

    @Test
    void config_check_prints_the_effective_configuration_with_secrets_masked() throws Exception {
        Path cfg = dir.resolve("ourios.yaml");
        Files.writeString(cfg, String.join("\n", "store:", "  uri: s3://logs/prod", "  s3:",
                "    endpoint: http://127.0.0.1:9000", "    access_key_id: AKIAEXAMPLE",
                "    secret_access_key: wJalrXUtnFEMI-very-secret", "ingest:", "  wal_dir: /var/lib/ourios-wal",
                "compaction:", "  grace: 30m", ""));
        var r = CliProcess.run(dir, Map.of("OURIOS_COMPACTION_GRACE", "20m"), "config", "check", "--config",
                cfg.toString());
        assertEquals(0, r.exit(), r.err());
        assertFalse(r.out().contains("wJalrXUtnFEMI"), r.out());
        assertTrue(r.out().contains("secret_access_key: \"********\""), r.out());
        assertTrue(r.out().contains("access_key_id: AKIAEXAMPLE"), r.out());
        assertTrue(r.out().contains("grace: 20m  # env OURIOS_COMPACTION_GRACE"), r.out());
        assertTrue(r.out().contains("uri: \"s3://logs/prod\"  # file " + cfg), r.out());
        assertTrue(r.out().contains("wal_dir: /var/lib/ourios-wal  # file " + cfg), r.out());
        assertTrue(r.out().contains("listen: \"127.0.0.1:4318\"  # default"), r.out());

        Files.writeString(cfg, "compaction:\n  gracee: 30m\n");
        var bad = CliProcess.run(dir, "config", "check", "--config", cfg.toString());
        assertEquals(2, bad.exit());
        assertEquals(1, bad.errLines().size(), bad.err());
        assertTrue(bad.err().contains("unknown key 'compaction.gracee'"), bad.err());
    }
}
