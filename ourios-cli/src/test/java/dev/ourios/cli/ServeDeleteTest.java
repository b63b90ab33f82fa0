package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/delete} against a real {@code serve} with a keys file: only an admin key of the tenant may call
 * it; bad bodies are 400s naming the field; the dry run counts what {@code /v1/query} counts with the same filters
 * and changes nothing; the deletion removes exactly those rows and no other tenant's, {@code ourios verify} passes,
 * and the audit series holds the {@code delete} events.
 */
class ServeDeleteTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACME = "acme";
    private static final String GLOBEX = "globex";
    private static final String FILTER = "\"from\":\"2026-11-01T10:00:00Z\",\"to\":\"2026-11-01T11:30:00Z\","
            + "\"severity_min\":13";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void onlyAnAdminKeyDeletesAndItRemovesExactlyWhatTheQueryCounts() throws Exception {
        String store = dir.resolve("s").toString();
        for (String tenant : List.of(ACME, GLOBEX)) {
            var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", tenant, "--start",
                    "2026-11-01T10:00:00Z", "--hours", "2", "--files-per-hour", "3", "--rows-per-file", "200");
            assertEquals(0, gen.exit(), gen.err());
        }
        Path keys = dir.resolve("keys.json");
        String acmeAdmin = newKey(keys, "acme-admin", ACME, "admin");
        String acmeQuery = newKey(keys, "acme-query", ACME, "query");
        String globexAdmin = newKey(keys, "globex-admin", GLOBEX, "admin");
        long acmeTotal;
        long matching;

        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_AUTH_KEYS_FILE", keys.toString(),
                "OURIOS_COMPACTION_ENABLED", "false"), "serve", "--store", store, "--http", "127.0.0.1:0")) {
            String api = "http://127.0.0.1:" + serve.port();

            // Who may call it.
            assertError(post(api, "/v1/delete", null, null, "{" + FILTER + "}"), 401, "Authorization");
            assertError(post(api, "/v1/delete", acmeQuery, null, "{" + FILTER + "}"), 403, null);
            assertError(post(api, "/v1/delete", globexAdmin, ACME, "{" + FILTER + "}"), 403, "X-Ourios-Tenant");

            // Bad bodies: refused naming the field, nothing changed.
            acmeTotal = count(api, acmeQuery, "");
            long globexTotal = count(api, globexAdmin, "");
            matching = count(api, acmeQuery, FILTER);
            assertTrue(matching > 0 && matching < acmeTotal, matching + " of " + acmeTotal);
            assertError(post(api, "/v1/delete", acmeAdmin, null, "{" + FILTER.replace("13", "\"high\"") + "}"), 400,
                    "severity_min");
            assertError(post(api, "/v1/delete", acmeAdmin, null, "{\"from\":\"2026-11-01T10:00:00Z\"}"), 400, "to");
            assertError(post(api, "/v1/delete", acmeAdmin, null, "{" + FILTER + ",\"tenant\":\"globex\"}"), 400,
                    "tenant");
            assertError(post(api, "/v1/delete", acmeAdmin, null, "{" + FILTER + ",\"limit\":5}"), 400, "limit");
            assertError(post(api, "/v1/delete", acmeAdmin, null, "{" + FILTER + ",\"dry_run\":\"yes\"}"), 400,
                    "dry_run");
            assertError(post(api, "/v1/delete", acmeAdmin, null, "{\"from\":\"2026-11-01T10:00:00Z\",\"to\":"
                    + "\"2026-11-01T10:00:00Z\"}"), 400, "to");
            assertError(post(api, "/v1/delete", acmeAdmin, null, "[" + FILTER + "]"), 400, null);
            assertEquals(acmeTotal, count(api, acmeQuery, ""), "a refused request changes nothing");

            // The dry run: per partition, the same total as the query's count, nothing changed.
            HttpResponse<String> dry = post(api, "/v1/delete", acmeAdmin, null, "{" + FILTER + ",\"dry_run\":true}");
            assertEquals(200, dry.statusCode(), dry.body());
            JsonNode d = JSON.readTree(dry.body());
            assertEquals(true, d.get("dry_run").asBoolean());
            assertEquals(matching, d.get("rows_matching").asLong(), dry.body());
            assertEquals(ACME, d.get("filter").get("tenant").asText());
            assertEquals(2, d.get("partitions").size(), dry.body());
            long perPartition = 0;
            for (JsonNode p : d.get("partitions")) {
                assertEquals("planned", p.get("result").asText(), p.toString());
                perPartition += p.get("rows_removed").asLong();
            }
            assertEquals(matching, perPartition);
            assertEquals(0, d.get("rewritten").asLong());
            assertEquals(acmeTotal, count(api, acmeQuery, ""), "a dry run changes nothing");
            var verifyDry = CliProcess.run(dir, "verify", "--store", store);
            assertEquals(0, verifyDry.exit(), verifyDry.out() + verifyDry.err());

            // The deletion: exactly the counted rows go, globex keeps all of its rows.
            HttpResponse<String> run = post(api, "/v1/delete", acmeAdmin, ACME, "{" + FILTER + "}");
            assertEquals(200, run.statusCode(), run.body());
            JsonNode r = JSON.readTree(run.body());
            assertEquals(false, r.get("dry_run").asBoolean());
            assertEquals(matching, r.get("rows_removed").asLong(), run.body());
            assertEquals(2, r.get("rewritten").asLong(), run.body());
            assertEquals(0, r.get("errors").asLong(), run.body());
            for (JsonNode p : r.get("partitions")) {
                assertEquals("committed", p.get("result").asText(), p.toString());
                assertEquals(p.get("rows_in").asLong() - p.get("rows_removed").asLong(), p.get("rows_out").asLong());
            }
            assertEquals(acmeTotal - matching, count(api, acmeQuery, ""));
            assertEquals(0, count(api, acmeQuery, FILTER), "no row the filter matches is left");
            assertEquals(globexTotal, count(api, globexAdmin, ""), "another tenant's rows are untouched");
            JsonNode served = serve.awaitEvent("ourios.delete.served", Duration.ofSeconds(30)).get("Attributes");
            assertEquals(ACME, served.get("ourios.tenant").asText());

            // Idempotent: the same request again finds nothing.
            HttpResponse<String> again = post(api, "/v1/delete", acmeAdmin, null, "{" + FILTER + "}");
            assertEquals(200, again.statusCode(), again.body());
            assertEquals(0, JSON.readTree(again.body()).get("rows_removed").asLong(), again.body());
            assertEquals(0, serve.terminate());
        }

        var verify = CliProcess.run(dir, "verify", "--store", store);
        assertEquals(0, verify.exit(), verify.out() + verify.err());
        assertEquals(acmeTotal - matching, count(store, ACME), "the CLI reads the same store after the deletion");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs = c.createStatement().executeQuery("SELECT count(*), sum(rows_removed), "
                        + "count(DISTINCT reason), min(reason) FROM read_parquet('" + store
                        + "/audit/**/*.parquet') WHERE event_type = 'delete'")) {
            assertTrue(rs.next());
            assertEquals(2, rs.getInt(1), "one delete event per rewritten partition");
            assertEquals(matching, rs.getLong(2));
            assertEquals(1, rs.getInt(3));
            assertEquals("{\"tenant\":\"acme\",\"from\":\"2026-11-01T10:00:00Z\",\"to\":\"2026-11-01T11:30:00Z\","
                    + "\"severity_min\":13}", rs.getString(4));
        }
    }

    /**
     * While a deletion runs, a second request is refused with 429 and {@code Retry-After}, and the running one
     * completes. The probe requests are dry runs; one that gets in before the deletion starts only counts, and a
     * deletion refused because such a probe held the server is sent again.
     */
    @Test
    void aSecondRequestWhileADeletionRunsIsRefusedWith429() throws Exception {
        String store = dir.resolve("s").toString();
        var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", ACME, "--start",
                "2026-11-01T10:00:00Z", "--hours", "3", "--files-per-hour", "4", "--rows-per-file", "40000");
        assertEquals(0, gen.exit(), gen.err());
        Path keys = dir.resolve("keys.json");
        String admin = newKey(keys, "acme-admin", ACME, "admin");
        String everything = "{\"from\":\"2026-11-01T10:00:00Z\",\"to\":\"2026-11-01T13:00:00Z\"}";
        String probe = "{\"from\":\"2026-11-01T10:00:00Z\",\"to\":\"2026-11-01T13:00:00Z\",\"dry_run\":true}";
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_AUTH_KEYS_FILE", keys.toString(),
                "OURIOS_COMPACTION_ENABLED", "false"), "serve", "--store", store, "--http", "127.0.0.1:0")) {
            String api = "http://127.0.0.1:" + serve.port();
            long total = count(api, admin, "");
            HttpResponse<String> refused = null;
            HttpResponse<String> done = null;
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            java.util.concurrent.CompletableFuture<HttpResponse<String>> running = postAsync(api, admin, everything);
            while (refused == null && System.nanoTime() < deadline) {
                HttpResponse<String> p = post(api, "/v1/delete", admin, null, probe);
                if (p.statusCode() == 429) {
                    refused = p;
                } else {
                    assertEquals(200, p.statusCode(), p.body());
                }
                if (running.isDone()) {
                    HttpResponse<String> r = running.get();
                    if (r.statusCode() == 429) {
                        running = postAsync(api, admin, everything); // a probe held the server: send it again
                    } else {
                        done = r;
                        break;
                    }
                }
            }
            assertTrue(refused != null, "no request was refused while the deletion ran"
                    + (done == null ? "" : " (it finished first: " + done.body() + ")"));
            assertError(refused, 429, null);
            assertEquals("10", refused.headers().firstValue("Retry-After").orElse(""), refused.headers().toString());
            HttpResponse<String> r = running.get(3, java.util.concurrent.TimeUnit.MINUTES);
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(total, JSON.readTree(r.body()).get("rows_removed").asLong(), r.body());
            assertEquals(0, count(api, admin, ""));
            assertEquals(0, serve.terminate());
        }
    }

    private java.util.concurrent.CompletableFuture<HttpResponse<String>> postAsync(String api, String token,
            String body) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create(api + "/v1/delete")).timeout(Duration.ofMinutes(3))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private long count(String store, String tenant) throws Exception {
        var c = CliProcess.run(dir, "query", "--store", store, "--tenant", tenant, "--count");
        assertEquals(0, c.exit(), c.err());
        return Long.parseLong(c.outLines().get(0).trim());
    }

    private static void assertError(HttpResponse<String> r, int status, String field) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertEquals(status, e.get("status").asInt(), r.body());
        if (field != null) {
            assertEquals(field, e.get("field").asText(), r.body());
        }
    }

    /** {@code /v1/query} with {@code count: true} and the given filter fields (no braces). */
    private long count(String api, String token, String filterFields) throws Exception {
        ObjectNode body = (ObjectNode) JSON.readTree("{" + filterFields + "}");
        body.put("count", true);
        HttpResponse<String> r = post(api, "/v1/query", token, null, body.toString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body()).get("count").asLong();
    }

    private HttpResponse<String> post(String api, String path, String token, String tenant, String body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofMinutes(2))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (tenant != null) {
            b.header("X-Ourios-Tenant", tenant);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String newKey(Path keys, String name, String tenant, String scope) throws Exception {
        List<String> args = new ArrayList<>(List.of("keys", "new", "--keys-file", keys.toString(), "--name", name,
                "--tenant", tenant, "--scope", scope));
        var r = CliProcess.run(dir, args.toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        return r.outLines().get(0).trim();
    }
}
