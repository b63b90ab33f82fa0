package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios serve} with a retention: its OTLP receiver answers a request holding a record older than the tenant's
 * retention with partial success naming it, stores the rest, and applies a tenant's own retention from
 * {@code --retention-tenant}.
 */
class ServeRetentionTest {
    @TempDir
    Path dir;

    private static String body(Instant old, Instant fresh) {
        return "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":["
                + "{\"timeUnixNano\":\"" + nanos(old) + "\",\"body\":{\"stringValue\":\"old\"}},"
                + "{\"timeUnixNano\":\"" + nanos(fresh) + "\",\"body\":{\"stringValue\":\"fresh\"}}]}]}]}";
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    @Test
    void theReceiverRefusesRecordsPastTheTenantsRetentionThroughPartialSuccess() throws Exception {
        Instant now = Instant.now();
        String request = body(now.minus(Duration.ofDays(3)), now.minus(Duration.ofMinutes(5)));
        HttpClient http = HttpClient.newHttpClient();
        java.nio.file.Files.createDirectories(dir.resolve("s"));
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false"), "serve",
                "--store", dir.resolve("s").toString(), "--http", "127.0.0.1:0", "--retention", "1d",
                "--retention-tenant", "archive=3650d")) {
            String endpoint = "http://127.0.0.1:" + serve.ingestPort() + "/v1/logs";
            HttpResponse<String> acme = http.send(HttpRequest.newBuilder(URI.create(endpoint))
                    .header("Content-Type", "application/json").header("X-Ourios-Tenant", "acme")
                    .POST(HttpRequest.BodyPublishers.ofString(request)).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, acme.statusCode(), acme.body());
            assertTrue(acme.body().contains("\"rejectedLogRecords\":\"1\""), acme.body());
            // protobuf JsonFormat writes the quotes around the tenant as unicode escapes.
            assertTrue(acme.body().contains("older than the retention of tenant \\u0027acme\\u0027 (1d): its hour "),
                    acme.body());

            HttpResponse<String> archive = http.send(HttpRequest.newBuilder(URI.create(endpoint))
                    .header("Content-Type", "application/json").header("X-Ourios-Tenant", "archive")
                    .POST(HttpRequest.BodyPublishers.ofString(request)).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, archive.statusCode(), archive.body());
            assertFalse(archive.body().contains("rejectedLogRecords"), archive.body());
            assertEquals(0, serve.terminate());
        }
        var acme = CliProcess.run(dir, "query", "--store", dir.resolve("s").toString(), "--tenant", "acme",
                "--count");
        assertEquals("1", acme.outLines().get(0).trim(), acme.err());
        var archive = CliProcess.run(dir, "query", "--store", dir.resolve("s").toString(), "--tenant", "archive",
                "--count");
        assertEquals("2", archive.outLines().get(0).trim(), archive.err());
    }
}
