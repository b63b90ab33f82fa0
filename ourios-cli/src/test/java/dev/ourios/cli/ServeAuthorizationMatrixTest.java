package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.security.TenantHeader;
import dev.ourios.testkit.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authorization over real HTTP against a real {@code serve}: every {@code /v1/*} endpoint of both ports against no
 * key, an unknown key, another tenant's key, a key without the scope and a revoked key, each answered with the
 * documented status and a JSON body that holds no row of another tenant; a one-tenant key needs no tenant header; a
 * non-ASCII tenant is written and read back through its percent-encoded header.
 */
class ServeAuthorizationMatrixTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACME = "acme";
    private static final String GLOBEX = "globex";
    private static final String UNICODE = "tënant-🙂 a/b";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void every_endpoint_answers_each_kind_of_caller_with_its_status_and_never_another_tenants_rows()
            throws Exception {
        Path keys = dir.resolve("keys.json");
        Map<String, String> token = new LinkedHashMap<>();
        token.put("acme-query", newKey(keys, "acme-query", List.of(ACME), List.of("query")));
        token.put("acme-ingest", newKey(keys, "acme-ingest", List.of(ACME), List.of("ingest")));
        token.put("globex", newKey(keys, "globex", List.of(GLOBEX), List.of("query", "ingest")));
        token.put("two", newKey(keys, "two", List.of(ACME, UNICODE), List.of("query", "ingest")));
        token.put("revoked", newKey(keys, "revoked", List.of(ACME), List.of("query", "ingest")));
        var revoke = CliProcess.run(dir, "keys", "revoke", "--keys-file", keys.toString(), "--name", "revoked");
        assertEquals(0, revoke.exit(), revoke.err());

        java.nio.file.Files.createDirectories(dir.resolve("s"));
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_AUTH_KEYS_FILE", keys.toString(),
                "OURIOS_COMPACTION_ENABLED", "false", "OURIOS_INGEST_FLUSH_INTERVAL", "200ms"), "serve",
                "--store", dir.resolve("s").toString(), "--http", "127.0.0.1:0", "--otlp-http", "127.0.0.1:0")) {
            String api = "http://127.0.0.1:" + serve.port();
            String otlp = "http://127.0.0.1:" + serve.ingestPort();

            // Writes: each tenant's rows carry a marker no other tenant's rows have.
            assertEquals(200, logs(otlp, token.get("acme-ingest"), null, "acme-secret").statusCode());
            assertEquals(200, logs(otlp, token.get("globex"), null, "globex-secret").statusCode());
            assertEquals(200, logs(otlp, token.get("two"), TenantHeader.encode(UNICODE), "unicode-secret")
                    .statusCode());
            Await.until("rows of all three tenants readable", Duration.ofSeconds(60), () ->
                    rowCount(api, token.get("acme-query"), null) == 1 && rowCount(api, token.get("globex"), null) == 1
                            && rowCount(api, token.get("two"), TenantHeader.encode(UNICODE)) == 1);

            List<String> failures = new ArrayList<>();
            for (Endpoint e : Endpoint.values()) {
                String base = e == Endpoint.LOGS ? otlp : api;
                expect(failures, e, "no key", e.call(this, base, null, null), 401, true);
                expect(failures, e, "unknown key", e.call(this, base, "ourios_not-a-key", null), 401, true);
                expect(failures, e, "revoked key", e.call(this, base, token.get("revoked"), null), 401, true);
                expect(failures, e, "another tenant's key", e.call(this, base, token.get("globex"), ACME), 403, false);
                String wrongScope = e == Endpoint.LOGS ? token.get("acme-query") : token.get("acme-ingest");
                expect(failures, e, "key without the scope", e.call(this, base, wrongScope, null), 403, false);
                expect(failures, e, "two tenant headers", e.callTwoTenants(this, base, token.get("two")), 400, false);
                expect(failures, e, "a two-tenant key without a tenant header",
                        e.call(this, base, token.get("two"), null), 400, false);
                expect(failures, e, "malformed tenant header", e.call(this, base, token.get("two"), "t%zz"), 400,
                        false);
            }
            assertEquals(List.of(), failures);

            // Allowed reads see their own tenant only.
            String acmeRows = query(api, token.get("acme-query"), null).body();
            assertTrue(acmeRows.contains("acme-secret"), acmeRows);
            assertFalse(acmeRows.contains("globex-secret") || acmeRows.contains("unicode-secret"), acmeRows);
            String globexRows = query(api, token.get("globex"), GLOBEX).body();
            assertTrue(globexRows.contains("globex-secret"), globexRows);
            assertFalse(globexRows.contains("acme-secret") || globexRows.contains("unicode-secret"), globexRows);
            String unicodeRows = query(api, token.get("two"), TenantHeader.encode(UNICODE)).body();
            assertTrue(unicodeRows.contains("unicode-secret"), unicodeRows);
            assertFalse(unicodeRows.contains("acme-secret") || unicodeRows.contains("globex-secret"), unicodeRows);
            HttpResponse<String> files = get(api + "/v1/files", token.get("globex"), null);
            assertEquals(200, files.statusCode(), files.body());
            assertFalse(files.body().contains("tenant_id=acme"), files.body());

            // Health stays open to load balancers without credentials.
            assertEquals(200, get(api + "/healthz", null, null).statusCode());
            assertEquals(200, get(api + "/readyz", null, null).statusCode());
            assertEquals(0, serve.terminate());
        }
    }

    private enum Endpoint {
        QUERY("/v1/query"), FILES("/v1/files"), LOGS("/v1/logs"), STATS("/v1/stats"), FIELDS("/v1/fields"),
        VALUES("/v1/fields/service/values"), TAIL("/v1/tail");

        private static final String STATS_BODY = "{\"from\":\"2026-11-01T10:00:00Z\",\"to\":\"2026-11-01T11:00:00Z\"}";
        final String path;

        Endpoint(String path) {
            this.path = path;
        }

        boolean posts() {
            return this == QUERY || this == LOGS || this == STATS;
        }

        HttpResponse<String> call(ServeAuthorizationMatrixTest t, String base, String token, String tenant)
                throws Exception {
            return switch (this) {
                case QUERY -> t.query(base, token, tenant);
                case LOGS -> t.logs(base, token, tenant, "refused-write");
                case STATS -> t.http.send(t.request(base + path, token, tenant).header("Content-Type",
                        "application/json").POST(HttpRequest.BodyPublishers.ofString(STATS_BODY)).build(),
                        HttpResponse.BodyHandlers.ofString());
                default -> t.get(base + path, token, tenant);
            };
        }

        HttpResponse<String> callTwoTenants(ServeAuthorizationMatrixTest t, String base, String token)
                throws Exception {
            HttpRequest.Builder b = t.request(base + path, token, ACME).header(TenantHeader.NAME,
                    TenantHeader.encode(UNICODE));
            b = !posts() ? b.GET() : b.header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(this == LOGS ? otlpJson("refused-write")
                            : this == STATS ? STATS_BODY : "{}"));
            return t.http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    private static void expect(List<String> failures, Endpoint e, String caller, HttpResponse<String> r, int status,
            boolean challenge) {
        String what = e + " with " + caller + ": " + r.statusCode() + " " + r.body();
        if (r.statusCode() != status) {
            failures.add(what + " (expected " + status + ")");
            return;
        }
        if (challenge && r.headers().firstValue("WWW-Authenticate").isEmpty()) {
            failures.add(what + " (no WWW-Authenticate)");
        }
        for (String marker : List.of("acme-secret", "globex-secret", "unicode-secret")) {
            if (r.body().contains(marker)) {
                failures.add(what + " (a row in a refusal)");
            }
        }
        if (e != Endpoint.LOGS && !r.body().startsWith("{\"error\"")) {
            failures.add(what + " (not a JSON error)");
        }
    }

    private String newKey(Path keys, String name, List<String> tenants, List<String> scopes) throws Exception {
        List<String> args = new ArrayList<>(List.of("keys", "new", "--keys-file", keys.toString(), "--name", name));
        tenants.forEach(t -> args.addAll(List.of("--tenant", t)));
        scopes.forEach(s -> args.addAll(List.of("--scope", s)));
        var r = CliProcess.run(dir, args.toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        return r.outLines().get(0).trim();
    }

    private HttpRequest.Builder request(String url, String token, String tenant) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (tenant != null) {
            b.header(TenantHeader.NAME, tenant);
        }
        return b;
    }

    private HttpResponse<String> get(String url, String token, String tenant) throws Exception {
        return http.send(request(url, token, tenant).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> query(String api, String token, String tenant) throws Exception {
        return http.send(request(api + "/v1/query", token, tenant).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> logs(String otlp, String token, String tenant, String marker) throws Exception {
        return http.send(request(otlp + "/v1/logs", token, tenant).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(otlpJson(marker))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String otlpJson(String marker) {
        Instant t = Instant.now().minus(Duration.ofMinutes(1));
        long nanos = t.getEpochSecond() * 1_000_000_000L + t.getNano();
        return "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"" + nanos
                + "\",\"body\":{\"stringValue\":\"" + marker + "\"}}]}]}]}";
    }

    /** The rows a query answers, or -1 while it is refused (the poll of a wait, so it does not throw). */
    private int rowCount(String api, String token, String tenant) {
        try {
            HttpResponse<String> r = query(api, token, tenant);
            JsonNode rows = r.statusCode() == 200 ? JSON.readTree(r.body()).get("rows") : null;
            return rows == null ? -1 : rows.size();
        } catch (Exception e) {
            throw new AssertionError("query failed", e);
        }
    }
}
