package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.testkit.RawHttp;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios serve} against clients that misbehave, as a real child process: connections that stall mid-header
 * or mid-body (more of them than handler threads), malformed requests, and queries whose answers are cut by the
 * row cap, the response byte cap or the deadline.
 */
class ServeHardeningTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String generate(int hours, int rowsPerFile, int bodyBytes) throws Exception {
        String store = dir.resolve("s").toString();
        var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", String.valueOf(hours), "--files-per-hour", "2", "--rows-per-file",
                String.valueOf(rowsPerFile), "--body-bytes", String.valueOf(bodyBytes));
        assertEquals(0, gen.exit(), gen.err());
        return store;
    }

    @Test
    void stalled_connections_beyond_the_thread_count_do_not_stop_health_checks_or_queries() throws Exception {
        String store = generate(1, 200, 0);
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_HTTP_THREADS", "2", "OURIOS_INGEST_THREADS", "2", "OURIOS_HTTP_HEADER_TIMEOUT", "2s",
                "OURIOS_HTTP_BODY_TIMEOUT", "2s"), "serve", "--store", store, "--http", "127.0.0.1:0")) {
            InetSocketAddress api = new InetSocketAddress("127.0.0.1", serve.port());
            InetSocketAddress otlp = new InetSocketAddress("127.0.0.1", serve.ingestPort());
            // A first query loads the Parquet reader's classes: what is timed below is serving, not a cold start.
            assertEquals(200, serve.post("/v1/query", "acme", "{\"limit\":1}").statusCode());
            List<RawHttp> stalled = new ArrayList<>();
            try {
                // Five times the handler threads on each port: half stop mid-header, half mid-body.
                for (int i = 0; i < 10; i++) {
                    stalled.add(stall(api, i, "/v1/query"));
                    stalled.add(stall(otlp, i, "/v1/logs"));
                }
                long t0 = System.nanoTime();
                assertEquals(200, serve.get("/healthz", null).statusCode());
                HttpResponse<String> q = serve.post("/v1/query", "acme", "{\"limit\":5}");
                assertEquals(200, q.statusCode(), q.body());
                assertEquals(5, JSON.readTree(q.body()).get("rows").size());
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms < 2000, "answered in " + ms + " ms beside 20 stalled connections (timeout 2 s)");
                for (RawHttp r : stalled) {
                    assertTrue(r.closedByServer(6000), "a stalled connection is closed within the timeouts");
                }
            } finally {
                for (RawHttp r : stalled) {
                    r.close();
                }
            }
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
    }

    private static RawHttp stall(InetSocketAddress to, int i, String path) throws Exception {
        RawHttp r = new RawHttp(to);
        if (i % 2 == 0) {
            r.send("POST " + path + " HTTP/1.1\r\nHost: x\r\nX-Ourios-Tenant: acme\r\nContent-Ty");
        } else {
            r.send("POST " + path + " HTTP/1.1\r\nHost: x\r\nX-Ourios-Tenant: acme\r\nContent-Type: application/json"
                    + "\r\nContent-Length: 200\r\n\r\n{\"limit\":");
        }
        return r;
    }

    @Test
    void malformed_requests_get_json_and_no_response_names_a_server_path() throws Exception {
        String store = generate(1, 50, 0);
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false"), "serve",
                "--store", store, "--http", "127.0.0.1:0")) {
            InetSocketAddress api = new InetSocketAddress("127.0.0.1", serve.port());
            InetSocketAddress otlp = new InetSocketAddress("127.0.0.1", serve.ingestPort());
            String close = "Connection: close\r\n";
            Map<String, Integer> requests = Map.of(
                    "POST /v1/query HTTP/1.1\r\nHost: x\r\nX-Ourios-Tenant: acme\r\nContent-Length: 12abc\r\n\r\n{}", 400,
                    "GET /v1/files?from=%zz HTTP/1.1\r\nHost: x\r\nX-Ourios-Tenant: acme\r\n" + close + "\r\n", 400,
                    "NOT-HTTP\r\n\r\n", 400,
                    "DELETE /v1/query HTTP/1.1\r\nHost: x\r\n" + close + "\r\n", 405,
                    "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n" + close + "\r\n", 400,
                    "GET /v1/nothing HTTP/1.1\r\nHost: x\r\n" + close + "\r\n", 404);
            for (InetSocketAddress port : List.of(api, otlp)) {
                for (Map.Entry<String, Integer> r : requests.entrySet()) {
                    if (port == otlp && r.getKey().contains("/v1/query") && r.getValue() == 405) {
                        continue; // the receiver has no /v1/query: that is a 404 there
                    }
                    try (RawHttp raw = new RawHttp(port)) {
                        String answer = raw.send(r.getKey()).readAll();
                        int status = RawHttp.status(answer);
                        assertTrue(status >= 400 && status < 500, answer);
                        if (port == api) {
                            assertEquals((int) r.getValue(), status, r.getKey() + " -> " + answer);
                        }
                        assertTrue(answer.toLowerCase().contains("content-type: application/json"), answer);
                        assertNotNull(JSON.readTree(RawHttp.body(answer)), answer);
                        assertTrue(answer.toLowerCase().contains("x-request-id: "), answer);
                        assertFalse(answer.contains("<html"), answer);
                    }
                }
            }
            HttpResponse<String> files = serve.get("/v1/files", "acme");
            assertEquals(200, files.statusCode(), files.body());
            for (JsonNode f : JSON.readTree(files.body()).get("files")) {
                String path = f.get("path").asText();
                assertTrue(path.startsWith("data/tenant_id=acme/"), "relative to the store root: " + path);
            }
            assertFalse(files.body().contains(dir.toString()), files.body());
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
    }

    @Test
    void a_cut_response_says_so_and_its_cursors_page_through_every_row_once() throws Exception {
        String store = generate(2, 300, 400); // 1200 rows of about 0.5 KiB
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_HTTP_MAX_ROWS", "5000", "OURIOS_HTTP_MAX_RESPONSE_BYTES", "64KiB"), "serve", "--store", store,
                "--http", "127.0.0.1:0")) {
            for (String order : List.of("newest_first", "oldest_first")) {
                // The reference: the count, then every page; no page may exceed the byte cap by more than a row.
                long total = JSON.readTree(serve.post("/v1/query", "acme", "{\"count\":true}").body()).get("count")
                        .asLong();
                assertEquals(1200, total);
                Set<String> seen = new HashSet<>();
                String cursor = null;
                int pages = 0;
                String previousTime = null;
                do {
                    String body = "{\"order\":\"" + order + "\"" + (cursor == null ? "" : ",\"cursor\":\"" + cursor
                            + "\"") + "}";
                    HttpResponse<String> r = serve.post("/v1/query", "acme", body);
                    assertEquals(200, r.statusCode(), r.body());
                    JsonNode page = JSON.readTree(r.body());
                    assertTrue(r.body().length() < 64 * 1024 + 4096, "a page is about max_response_bytes");
                    for (JsonNode row : page.get("rows")) {
                        assertTrue(seen.add(row.toString()), "a row is sent once across pages: " + row);
                        String t = row.get("time").asText();
                        if (previousTime != null) {
                            int c = java.time.Instant.parse(t).compareTo(java.time.Instant.parse(previousTime));
                            assertTrue(order.equals("newest_first") ? c <= 0 : c >= 0, "pages continue the order");
                        }
                        previousTime = t;
                    }
                    if (page.get("truncated").asBoolean()) {
                        assertEquals("max_response_bytes", page.get("truncated_by").asText(), r.body());
                        cursor = page.get("cursor").asText();
                    } else {
                        assertFalse(page.has("cursor"), "the last page has no cursor");
                        cursor = null;
                    }
                    pages++;
                } while (cursor != null && pages < 100);
                assertTrue(pages > 2, "the byte cap cut the answer into pages: " + pages);
                assertEquals(total, seen.size(), order + ": every row exactly once over " + pages + " pages");
            }

            // A limit below the matches: cut by the limit, with a cursor; the row cap says so by its own name.
            JsonNode limited = JSON.readTree(serve.post("/v1/query", "acme", "{\"limit\":7}").body());
            assertEquals(7, limited.get("rows").size());
            assertTrue(limited.get("truncated").asBoolean());
            assertEquals("limit", limited.get("truncated_by").asText());
            JsonNode exact = JSON.readTree(serve.post("/v1/query", "acme",
                    "{\"limit\":7,\"service\":\"no-such-service\"}").body());
            assertFalse(exact.get("truncated").asBoolean(), "nothing more matched: not truncated");
            assertError(serve.post("/v1/query", "acme", "{\"cursor\":\"not-a-cursor\"}"), 400, "cursor");
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
        try (DaemonProcess capped = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_HTTP_MAX_ROWS", "10"), "serve", "--store", store, "--http", "127.0.0.1:0")) {
            JsonNode r = JSON.readTree(capped.post("/v1/query", "acme", "{}").body());
            assertEquals(10, r.get("rows").size());
            assertEquals("max_rows", r.get("truncated_by").asText(), r.toString());
            assertEquals(0, capped.terminate(), String.join("\n", capped.err()));
        }
    }

    @Test
    void a_query_past_its_deadline_is_a_json_504() throws Exception {
        String store = generate(1, 2000, 0);
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_HTTP_QUERY_TIMEOUT", "1ms"), "serve", "--store", store, "--http", "127.0.0.1:0")) {
            HttpResponse<String> r = serve.post("/v1/query", "acme", "{\"contains\":\"no such text anywhere\"}");
            assertError(r, 504, null);
            assertTrue(r.body().contains("http.query_timeout"), r.body());
            HttpResponse<String> c = serve.post("/v1/query", "acme", "{\"count\":true}");
            assertError(c, 504, null);
            assertEquals(200, serve.get("/healthz", null).statusCode());
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
    }

    private static void assertError(HttpResponse<String> r, int status, String field) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), r.body());
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertEquals(status, e.get("status").asInt(), r.body());
        assertFalse(e.get("message").asText().isBlank(), r.body());
        assertFalse(e.get("request_id").asText().isBlank(), r.body());
        if (field != null) {
            assertEquals(field, e.get("field").asText(), r.body());
        }
    }
}
