package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.testkit.Await;
import java.io.IOException;
import java.io.OutputStream;
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
 * The WAL's disk fills under a running {@code serve} (a 1 MiB tmpfs, mounted by the test: root and CAP_SYS_ADMIN,
 * skipped with the reason where mounting is refused): exports are 503 and {@code /readyz} is 503 naming the WAL
 * while it is full; once space returns, exports are 200 again and {@code /readyz} ready, without a restart, and
 * every acknowledged record is stored.
 */
class ServeWalDiskFullTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private Path mount;

    @AfterEach
    void unmount() throws Exception {
        if (mount != null) {
            new ProcessBuilder("umount", "-l", mount.toString()).redirectErrorStream(true).start()
                    .waitFor(30, TimeUnit.SECONDS);
        }
    }

    private Path tmpfs(String size) throws Exception {
        Path m = Files.createDirectories(dir.resolve("walfs"));
        String why;
        int status;
        try {
            Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", m.toString())
                    .redirectErrorStream(true).start();
            why = new String(p.getInputStream().readAllBytes()).strip();
            status = p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (IOException e) {
            status = -1;
            why = e.getMessage();
        }
        Assumptions.assumeTrue(status == 0, "skipped: cannot mount a " + size + " tmpfs at " + m
                + " (needs root and CAP_SYS_ADMIN): " + why);
        mount = m;
        return m;
    }

    /** Writes zeros until the file system is full. */
    private static void fill(Path file) throws IOException {
        byte[] chunk = new byte[4096];
        try (OutputStream out = Files.newOutputStream(file)) {
            while (true) {
                out.write(chunk);
            }
        } catch (IOException expected) {
            // No space left on device: the disk is full.
        }
    }

    @Test
    void a_full_wal_disk_is_503_and_not_ready_and_ingest_resumes_once_space_returns() throws Exception {
        Path wal = tmpfs("1m").resolve("wal");
        Path store = Files.createDirectories(dir.resolve("store"));
        int acknowledged = 0;
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_INGEST_FLUSH_INTERVAL", "200ms"), "serve", "--store", store.toString(), "--http",
                "127.0.0.1:0", "--wal-dir", wal.toString())) {
            int otlp = serve.ingestPort();
            assertEquals(200, OneRecordExport.send(otlp, acknowledged));
            acknowledged++;
            assertEquals(200, serve.get("/readyz", null).statusCode());

            Path filler = mount.resolve("filler");
            fill(filler);
            // The next write of the WAL meets the full disk (the open segment's tail, or a new segment's header).
            int i = 1000;
            int status = 200;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (status == 200 && System.nanoTime() < deadline) {
                status = OneRecordExport.send(otlp, i++);
                if (status == 200) {
                    acknowledged++;
                }
            }
            assertEquals(503, status, "an export once the WAL's disk is full");
            HttpResponse<String> notReady = serve.get("/readyz", null);
            assertEquals(503, notReady.statusCode(), notReady.body());
            String reason = JSON.readTree(notReady.body()).get("reason").asText();
            assertTrue(reason.contains("write-ahead log cannot be written")
                    && reason.contains("No space left on device"), reason);
            assertTrue(!reason.contains(mount.toString()), "no server path in the answer: " + reason);

            Files.delete(filler);
            int[] next = {i};
            int[] ok = {acknowledged};
            Await.until("exports accepted again without a restart", Duration.ofSeconds(30), () -> {
                try {
                    if (OneRecordExport.send(otlp, next[0]++) == 200) {
                        ok[0]++;
                        return true;
                    }
                    return false;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Await.until("ready again", Duration.ofSeconds(30), () -> {
                try {
                    return serve.get("/readyz", null).statusCode() == 200;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
            acknowledged = ok[0];
        }
        var count = CliProcess.run(dir, "query", "--store", store.toString(), "--tenant", "acme", "--count");
        assertEquals(0, count.exit(), count.err());
        long stored = Long.parseLong(count.outLines().get(0).trim());
        // Every acknowledged record is stored; a request answered 503 may have been stored too (at least once).
        assertTrue(stored >= acknowledged, stored + " stored, " + acknowledged + " acknowledged");
    }
}
