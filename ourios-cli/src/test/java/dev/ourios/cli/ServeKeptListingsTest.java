package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.testkit.Await;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios serve}'s read side keeps the listings of quiet directories: a record acknowledged into an hour whose
 * directories have been quiet (their modification times set an hour back, each time later than the last, as the
 * passing of time would) is counted by the next queries all the same, and a query over the kept listings counts
 * what a fresh process counts.
 */
class ServeKeptListingsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant FROM = Instant.ofEpochSecond(OneRecordExport.T0 / 1_000_000_000L).minusSeconds(3600);
    private static final Instant TO = FROM.plusSeconds(7200);

    @TempDir
    Path dir;
    private Instant aged = Instant.now().minus(Duration.ofHours(2));

    @Test
    void a_record_landing_in_a_quiet_hour_is_counted_at_once_by_the_next_queries() throws Exception {
        Path store = dir.resolve("store");
        int acknowledged = 0;
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_INGEST_FLUSH_INTERVAL", "200ms"), "serve", "--store", store.toString(), "--http",
                "127.0.0.1:0", "--wal-dir", dir.resolve("wal").toString())) {
            int otlp = serve.ingestPort();
            for (int round = 0; round < 4; round++) {
                assertEquals(200, OneRecordExport.send(otlp, acknowledged++));
                int expected = acknowledged;
                Await.until("record " + (expected - 1) + " counted", Duration.ofSeconds(60),
                        () -> count(serve) == expected);
                age(store.resolve("data"));
                for (int again = 0; again < 3; again++) { // kept from the first of these on
                    assertEquals(expected, count(serve), "round " + round + ", over kept listings");
                }
            }
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
        var fresh = CliProcess.run(dir, "query", "--store", store.toString(), "--tenant", "acme", "--count",
                "--from", FROM.toString(), "--to", TO.toString());
        assertEquals(0, fresh.exit(), fresh.err());
        assertEquals(acknowledged, Long.parseLong(fresh.outLines().get(0).trim()));
    }

    private static long count(DaemonProcess serve) {
        try {
            HttpResponse<String> r = serve.post("/v1/query", "acme", "{\"count\":true,\"from\":\"" + FROM
                    + "\",\"to\":\"" + TO + "\"}");
            assertEquals(200, r.statusCode(), r.body());
            return JSON.readTree(r.body()).get("count").asLong();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sets every directory under {@code root} quiet: its modification time an hour and more back, later each time. */
    private void age(Path root) throws IOException {
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> all = Files.walk(root)) {
            all.filter(Files::isDirectory).forEach(dirs::add);
        }
        for (Path d : dirs) {
            aged = aged.plusMillis(1);
            Files.setLastModifiedTime(d, FileTime.from(aged));
        }
    }
}
