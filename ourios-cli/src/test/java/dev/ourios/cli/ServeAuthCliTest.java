package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve} and authorization at start: the loopback rule, {@code --insecure-no-auth}, the keys file, SIGHUP. */
class ServeAuthCliTest {
    @TempDir
    Path dir;

    /** serve refuses a missing store before anything else; these tests are about what comes after. */
    @BeforeEach
    void createStore() throws Exception {
        Files.createDirectories(dir.resolve("s"));
    }

    @Test
    void a_non_loopback_address_without_keys_is_refused_for_either_port() throws Exception {
        String store = dir.resolve("s").toString();
        var http = CliProcess.run(dir, Map.of("OURIOS_OTLP_HTTP", "127.0.0.1:0"), "serve", "--store", store,
                "--http", "0.0.0.0:0");
        assertEquals(2, http.exit(), http.err());
        assertEquals(List.of("ourios: http.listen: 0.0.0.0:0 is not a loopback address and no API keys are "
                + "configured; set auth.keys_file (see 'ourios keys new'), or give --insecure-no-auth to let anyone "
                + "who reaches it read and write every tenant"), http.errLines());

        var otlp = CliProcess.run(dir, Map.of(), "serve", "--store", store, "--http", "127.0.0.1:0",
                "--otlp-http", "0.0.0.0:0");
        assertEquals(2, otlp.exit(), otlp.err());
        assertEquals(1, otlp.errLines().size(), otlp.err());
        assertTrue(otlp.err().startsWith("ourios: ingest.listen: 0.0.0.0:0 is not a loopback address"), otlp.err());

        var grpc = CliProcess.run(dir, Map.of("OURIOS_OTLP_HTTP", "127.0.0.1:0"), "serve", "--store", store,
                "--http", "127.0.0.1:0", "--otlp-grpc", "0.0.0.0:0");
        assertEquals(2, grpc.exit(), grpc.err());
        assertEquals(1, grpc.errLines().size(), grpc.err());
        assertTrue(grpc.err().startsWith("ourios: ingest.grpc_listen: 0.0.0.0:0 is not a loopback address"),
                grpc.err());

        var both = CliProcess.run(dir, Map.of(), "serve", "--store", store, "--http", "0.0.0.0:0",
                "--insecure-no-auth", "--keys-file", dir.resolve("k.json").toString());
        assertEquals(2, both.exit(), both.err());
        assertTrue(both.err().startsWith("ourios: --insecure-no-auth contradicts auth.keys_file (flag --keys-file) "),
                both.err());
        try (var written = Files.list(dir.resolve("s"))) {
            assertEquals(0, written.count(), "nothing started, nothing written");
        }
    }

    @Test
    void insecure_no_auth_serves_any_address_with_a_warning_at_start() throws Exception {
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_OTLP_HTTP", "0.0.0.0:0"), "serve",
                "--store", dir.resolve("s").toString(), "--http", "0.0.0.0:0", "--insecure-no-auth",
                "--interval", "1h")) {
            JsonNode warning = serve.awaitEvent("ourios.serve.insecure_no_auth", Duration.ofSeconds(60));
            assertEquals("WARN", warning.get("SeverityText").asText());
            assertTrue(warning.get("Body").asText().contains("http.listen 0.0.0.0:0, ingest.listen 0.0.0.0:0"),
                    warning.toString());
            assertEquals(200, serve.get("/healthz", null).statusCode());
            assertEquals(0, serve.terminate());
        }
    }

    @Test
    void with_keys_serve_listens_anywhere_and_a_hangup_rereads_the_file() throws Exception {
        Path keys = dir.resolve("keys.json");
        var created = CliProcess.run(dir, "keys", "new", "--keys-file", keys.toString(), "--name", "a", "--tenant",
                "acme", "--scope", "query");
        assertEquals(0, created.exit(), created.err());
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_AUTH_KEYS_FILE", keys.toString()),
                "serve", "--store", dir.resolve("s").toString(), "--http", "0.0.0.0:0", "--interval", "1h")) {
            serve.port();
            assertTrue(serve.err().stream().noneMatch(l -> l.contains("insecure")), serve.err().toString());
            byte[] good = Files.readAllBytes(keys);
            Files.writeString(keys, "{\"keys\":[{\"name\":\"a\"}]}");
            hangUp(serve);
            String kept = serve.awaitLine(false, l -> l.contains("keeping the 1 keys read before"),
                    Duration.ofSeconds(60));
            assertTrue(kept.contains("keys[0] 'a': token_hash: missing"), kept);
            Files.write(keys, good);
            var second = CliProcess.run(dir, "keys", "new", "--keys-file", keys.toString(), "--name", "b",
                    "--tenant", "acme", "--scope", "ingest");
            assertEquals(0, second.exit(), second.err());
            hangUp(serve);
            JsonNode reloaded = serve.awaitEvent("ourios.auth.keys.reloaded", Duration.ofSeconds(60));
            assertTrue(reloaded.get("Body").asText().endsWith("re-read: 2 keys (0 revoked)"), reloaded.toString());
            assertEquals(0, serve.terminate());
        }
    }

    @Test
    void started_with_hangup_ignored_serve_says_a_hangup_will_not_reread_the_keys() throws Exception {
        Path keys = dir.resolve("keys.json");
        var created = CliProcess.run(dir, "keys", "new", "--keys-file", keys.toString(), "--name", "a", "--tenant",
                "acme", "--scope", "query");
        assertEquals(0, created.exit(), created.err());
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_AUTH_KEYS_FILE", keys.toString()),
                List.of("nohup"), "serve", "--store", dir.resolve("s").toString(), "--http", "127.0.0.1:0",
                "--interval", "1h")) {
            String warning = serve.awaitLine(false, l -> l.contains("SIGHUP is ignored by this process"),
                    Duration.ofSeconds(60));
            assertTrue(warning.contains(keys + " is still re-read when it changes"), warning);
            assertEquals(200, serve.get("/healthz", null).statusCode());
            assertEquals(0, serve.terminate());
        }
    }

    @Test
    void a_keys_file_that_does_not_read_stops_the_start() throws Exception {
        Path keys = dir.resolve("keys.json");
        Files.writeString(keys, "{\"keys\":[{\"name\":\"a\",\"tenants\":\"*\"}]}");
        var r = CliProcess.run(dir, Map.of(), "serve", "--store", dir.resolve("s").toString(), "--http",
                "127.0.0.1:0", "--otlp-http", "127.0.0.1:0", "--keys-file", keys.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals(List.of("ourios: auth.keys_file (flag --keys-file): " + keys + ": keys[0] 'a': token_hash: "
                + "missing"), r.errLines());
        var check = CliProcess.run(dir, Map.of("OURIOS_AUTH_KEYS_FILE", dir.resolve("none.json").toString()),
                "config", "check");
        assertEquals(2, check.exit(), check.err());
        assertTrue(check.err().startsWith("ourios: auth.keys_file (env OURIOS_AUTH_KEYS_FILE): "
                + dir.resolve("none.json") + ": no such keys file"), check.err());
    }

    private static void hangUp(DaemonProcess serve) throws Exception {
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(serve.pid())).inheritIO().start();
        assertTrue(kill.waitFor(30, TimeUnit.SECONDS), "kill -HUP finished");
        assertEquals(0, kill.exitValue());
    }
}
