package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.store.s3.S3ProxyServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios serve} on an S3-compatible store (s3proxy as a child process), configured only through
 * {@code OURIOS_*} variables including a static key pair: it compacts and answers queries, {@code /readyz} turns 503
 * once the store is unreachable, and SIGTERM still drains to exit 0.
 */
class ServeS3EndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void serves_an_s3_store_and_reports_not_ready_when_it_goes_away() throws Exception {
        S3ProxyServer s3 = S3ProxyServer.start();
        try {
            s3.createBucket("logs");
            String store = "s3://logs/prod";
            var gen = CliProcess.run(dir, Map.of("OURIOS_S3_ENDPOINT", s3.endpoint().toString(),
                    "AWS_ACCESS_KEY_ID", S3ProxyServer.IDENTITY, "AWS_SECRET_ACCESS_KEY", S3ProxyServer.CREDENTIAL,
                    "AWS_REGION", "us-east-1"), "generate", "--store", store, "--tenant", "acme", "--start",
                    "2026-11-01T10:00:00Z", "--hours", "1", "--files-per-hour", "3", "--rows-per-file", "100");
            assertEquals(0, gen.exit(), gen.err());

            try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_STORE", store,
                    "OURIOS_S3_ENDPOINT", s3.endpoint().toString(),
                    "OURIOS_S3_ACCESS_KEY_ID", S3ProxyServer.IDENTITY,
                    "OURIOS_S3_SECRET_ACCESS_KEY", S3ProxyServer.CREDENTIAL,
                    "OURIOS_HTTP", "127.0.0.1:0", "OURIOS_COMPACTION_INTERVAL", "1h",
                    "OURIOS_INGEST_WAL_DIR", dir.resolve("wal").toString()), "serve")) {
                JsonNode committed = serve.awaitEvent("ourios.compaction.sweep.end", java.time.Duration.ofMinutes(2));
                // The hour's compaction, then the rollup of its sealed day (compaction.rollup is on by default).
                assertEquals(2, committed.get("Attributes").get("ourios.compaction.committed").asInt(),
                        committed.toString());
                assertEquals(200, serve.get("/readyz", null).statusCode());
                HttpResponse<String> q = serve.post("/v1/query", "acme", "{\"limit\":1000}");
                assertEquals(200, q.statusCode(), q.body());
                assertEquals(300, JSON.readTree(q.body()).get("stats").get("rows").asLong());
                HttpResponse<String> files = serve.get("/v1/files", "acme");
                JsonNode list = JSON.readTree(files.body()).get("files");
                assertEquals(1, list.size(), files.body());
                assertTrue(list.get(0).get("path").asText().startsWith("data/tenant_id=acme/"),
                        "relative to the store root: " + files.body());
                assertTrue(serve.err().stream().noneMatch(l -> l.contains(S3ProxyServer.CREDENTIAL)),
                        "the secret is never logged");

                s3.close(); // the store goes away
                HttpResponse<String> down = serve.get("/readyz", null);
                assertEquals(503, down.statusCode(), down.body());
                assertTrue(down.body().contains("store unreachable"), down.body());
                assertEquals(200, serve.get("/healthz", null).statusCode(), "alive, just not ready");

                assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
            }
        } finally {
            s3.close();
        }
    }
}
