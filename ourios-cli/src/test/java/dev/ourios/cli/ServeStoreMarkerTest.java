package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.testkit.Await;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store is recognised by its identity marker: {@code serve} creates a missing store under an existing parent
 * and refuses one under a missing parent; when the store's volume is unmounted under a running {@code serve}
 * (a bind mount the test makes and removes: root and CAP_SYS_ADMIN, skipped with the reason where refused),
 * nothing is written on the disk underneath, {@code /readyz} is 503 naming the marker, and once the volume is back
 * the records held in the WAL land by themselves.
 */
class ServeStoreMarkerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private Path mounted;

    @AfterEach
    void unmount() throws Exception {
        if (mounted != null) {
            run("umount", "-l", mounted.toString());
        }
    }

    private static int run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    @Test
    void serve_creates_a_missing_store_under_an_existing_parent_and_refuses_one_under_a_missing_parent()
            throws Exception {
        Path fresh = dir.resolve("new");
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false"), "serve",
                "--store", fresh.toString(), "--http", "127.0.0.1:0", "--wal-dir", dir.resolve("wal").toString())) {
            var created = serve.awaitEvent("ourios.store.created", Duration.ofSeconds(60));
            assertTrue(created.get("Body").asText().contains(fresh.toString()), created.toString());
            assertEquals(200, serve.get("/readyz", null).statusCode());
            assertTrue(Files.isRegularFile(fresh.resolve("ourios-store.json")));
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
        String marker = Files.readString(fresh.resolve("ourios-store.json"));
        assertTrue(marker.matches("\\{\"format\":1,\"store_id\":\"[0-9a-f-]{36}\"}\\s*"), marker);

        Path orphan = dir.resolve("missing").resolve("new");
        var refused = CliProcess.run(dir, "serve", "--store", orphan.toString(), "--http", "127.0.0.1:0",
                "--wal-dir", dir.resolve("wal2").toString());
        assertEquals(2, refused.exit(), refused.err());
        assertTrue(refused.err().contains("its parent directory " + dir.resolve("missing") + " does not exist"),
                refused.err());
        assertFalse(Files.exists(dir.resolve("missing")));
    }

    @Test
    void an_unmounted_store_gets_nothing_written_and_flushing_resumes_when_it_is_back() throws Exception {
        Path volume = Files.createDirectories(dir.resolve("volume"));
        Path mountPoint = Files.createDirectories(dir.resolve("mnt"));
        int status = run("mount", "--bind", volume.toString(), mountPoint.toString());
        Assumptions.assumeTrue(status == 0, "skipped: cannot bind-mount (needs root and CAP_SYS_ADMIN)");
        mounted = mountPoint;
        int acknowledged = 0;
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_INGEST_FLUSH_INTERVAL", "200ms"), "serve", "--store", mountPoint.toString(), "--http",
                "127.0.0.1:0", "--wal-dir", dir.resolve("wal").toString())) {
            int otlp = serve.ingestPort();
            assertEquals(200, OneRecordExport.send(otlp, acknowledged++));
            Await.until("the first record flushed", Duration.ofSeconds(30),
                    () -> Files.exists(volume.resolve("data/tenant_id=acme")));

            // Lazy, as a volume that goes away under open files does: a flush in progress may hold one open.
            assertEquals(0, run("umount", "-l", mountPoint.toString()), "unmount");
            mounted = null;
            for (int i = 0; i < 5; i++) {
                assertEquals(200, OneRecordExport.send(otlp, acknowledged++), "the WAL still takes records");
            }
            serve.awaitLine(false, l -> l.contains("identity marker") && l.contains("retrying"),
                    Duration.ofSeconds(30));
            HttpResponse<String> notReady = serve.get("/readyz", null);
            assertEquals(503, notReady.statusCode(), notReady.body());
            assertTrue(JSON.readTree(notReady.body()).get("reason").asText().contains("ourios-store.json"),
                    notReady.body());
            assertFalse(Files.exists(mountPoint.resolve("data")), "nothing written on the disk underneath");

            assertEquals(0, run("mount", "--bind", volume.toString(), mountPoint.toString()), "remount");
            mounted = mountPoint;
            Await.until("ready again", Duration.ofSeconds(60), () -> {
                try {
                    return serve.get("/readyz", null).statusCode() == 200;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
        var count = CliProcess.run(dir, "query", "--store", volume.toString(), "--tenant", "acme", "--count");
        assertEquals(0, count.exit(), count.err());
        assertEquals(acknowledged, Long.parseLong(count.outLines().get(0).trim()), "every acknowledged record");
    }
}
