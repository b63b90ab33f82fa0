package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web UI's files and the endpoints only the UI needed, over HTTP against a {@code serve} child (no browser):
 * the security headers, gzip within the size budget, ETag revalidation, {@code http.ui_enabled=false},
 * {@code GET /v1/status} (admin scope) and {@code GET /v1/tenants}.
 */
class ServeUiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> ASSETS = List.of("/", "/ui/app.js", "/ui/app.css", "/ui/icon.svg");
    private static final long BUDGET = 300 * 1024;

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void the_ui_is_served_with_a_strict_policy_gzip_and_etags_and_the_status_answers() throws Exception {
        Path store = dir.resolve("store");
        var gen = CliProcess.run(dir, "generate", "--store", store.toString(), "--tenant", "acme", "--tenant", "globex",
                "--hours", "2", "--files-per-hour", "2", "--rows-per-file", "50");
        assertEquals(0, gen.exit(), gen.err());
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false"), "serve",
                "--store", store.toString(), "--http", "127.0.0.1:0")) {
            String base = "http://127.0.0.1:" + serve.port();
            long compressed = 0;
            for (String path : ASSETS) {
                HttpResponse<byte[]> plain = get(base + path, Map.of());
                assertEquals(200, plain.statusCode(), path);
                String csp = plain.headers().firstValue("Content-Security-Policy").orElse("");
                assertTrue(csp.startsWith("default-src 'self'"), path + ": " + csp);
                assertTrue(csp.contains("frame-ancestors 'none'"), csp);
                assertFalse(csp.contains("unsafe-inline") || csp.contains("unsafe-eval"), csp);
                assertEquals("nosniff", plain.headers().firstValue("X-Content-Type-Options").orElse(""), path);
                String etag = plain.headers().firstValue("ETag").orElseThrow();
                HttpResponse<byte[]> zipped = get(base + path, Map.of("Accept-Encoding", "gzip, deflate"));
                assertEquals("gzip", zipped.headers().firstValue("Content-Encoding").orElse(""), path);
                assertEquals(new String(plain.body(), StandardCharsets.UTF_8), gunzip(zipped.body()), path);
                compressed += zipped.body().length;
                HttpResponse<byte[]> again = get(base + path, Map.of("If-None-Match", etag));
                assertEquals(304, again.statusCode(), path);
                assertEquals(0, again.body().length, path);
            }
            assertTrue(compressed < BUDGET, "assets " + compressed + " bytes gzipped");
            String page = new String(get(base + "/", Map.of()).body(), StandardCharsets.UTF_8);
            assertFalse(page.matches("(?s).*<script>.*|.*<script [^>]*>[^<]+</script>.*|.*\\son[a-z]+=.*|.*style=.*"),
                    "no inline script, handler or style in the page");

            JsonNode tenants = JSON.readTree(get(base + "/v1/tenants", Map.of()).body());
            assertEquals(List.of("acme", "globex"), strings(tenants.get("tenants")));
            assertFalse(tenants.get("auth").asBoolean());

            HttpResponse<byte[]> st = get(base + "/v1/status", Map.of());
            assertEquals(200, st.statusCode(), new String(st.body(), StandardCharsets.UTF_8));
            JsonNode status = JSON.readTree(st.body());
            JsonNode acme = status.get("store").get("tenants").get(0);
            assertEquals("acme", acme.get("tenant").asText());
            assertEquals(2, acme.get("hours").asInt());
            assertEquals(4, acme.get("live_files").asLong());
            assertEquals(1.0, acme.get("small_file_share").asDouble());
            // two sealed hours of two ingest files each, per tenant, with no compaction running
            assertEquals(4, status.get("compaction").get("backlog_partitions").asLong());
            assertTrue(status.get("ingest").get("enabled").asBoolean());
            assertEquals(0, status.get("ingest").get("wal_bytes").asLong());
            assertEquals(0, status.get("ingest").get("quarantined_segments").asLong());
            assertEquals(0, status.get("ingest").get("quarantined_bytes").asLong());
            assertFalse(status.get("iceberg").get("enabled").asBoolean());
            assertEquals(400, get(base + "/v1/status?x=1", Map.of()).statusCode());
        }
    }

    @Test
    void ui_enabled_false_leaves_no_page_and_status_needs_the_admin_scope() throws Exception {
        Path keys = dir.resolve("keys.json");
        String query = newKey(keys, "reader", "acme", "query");
        String admin = newKey(keys, "operator", "*", "admin");
        Path store = Files.createDirectories(dir.resolve("store"));
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_HTTP_UI_ENABLED", "false",
                "OURIOS_AUTH_KEYS_FILE", keys.toString(), "OURIOS_COMPACTION_ENABLED", "false"), "serve",
                "--store", store.toString(), "--http", "127.0.0.1:0")) {
            String base = "http://127.0.0.1:" + serve.port();
            for (String path : ASSETS) {
                assertEquals(404, get(base + path, Map.of()).statusCode(), path);
            }
            assertEquals(401, get(base + "/v1/status", Map.of()).statusCode());
            assertEquals(403, get(base + "/v1/status", Map.of("Authorization", "Bearer " + query)).statusCode());
            assertEquals(200, get(base + "/v1/status", Map.of("Authorization", "Bearer " + admin)).statusCode());
            JsonNode mine = JSON.readTree(get(base + "/v1/tenants", Map.of("Authorization", "Bearer " + query))
                    .body());
            assertEquals(List.of("acme"), strings(mine.get("tenants")));
            assertTrue(mine.get("auth").asBoolean());
            assertFalse(mine.get("any").asBoolean());
            assertEquals(401, get(base + "/v1/tenants", Map.of("Authorization", "Bearer nope")).statusCode());
        }
    }

    private String newKey(Path keys, String name, String tenant, String scope) throws Exception {
        var r = CliProcess.run(dir, "keys", "new", "--keys-file", keys.toString(), "--name", name, "--tenant", tenant,
                "--scope", scope);
        assertEquals(0, r.exit(), r.err());
        return r.outLines().get(0).trim();
    }

    private HttpResponse<byte[]> get(String url, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET();
        headers.forEach(b::header);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String gunzip(byte[] b) throws Exception {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(b))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
