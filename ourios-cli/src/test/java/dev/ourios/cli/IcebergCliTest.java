package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios iceberg sync} through the real CLI: it publishes the live set, commits nothing when nothing changed,
 * follows a compaction, and {@code ourios gc} keeps every file the view's current snapshot still references until
 * a sync moves the view on.
 */
class IcebergCliTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void sync_follows_the_live_set_and_gc_keeps_what_the_view_references() throws Exception {
        Path root = dir.resolve("s");
        String store = root.toString();
        var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "2", "--files-per-hour", "6", "--rows-per-file", "200");
        assertEquals(0, gen.exit(), gen.err());

        JsonNode first = sync(store);
        assertTrue(first.get("changed").asBoolean());
        assertEquals(1, first.get("version").asInt());
        assertEquals(12, first.get("files_added").asInt());
        assertEquals(2, first.get("partitions_changed").asInt());
        assertTrue(first.get("full").asBoolean());
        assertEquals(2, first.get("partitions_read").asInt());
        assertEquals("file:" + root.toAbsolutePath().normalize() + "/iceberg/logs", first.get("table").asText());
        assertTrue(Files.exists(root.resolve("iceberg/logs/metadata/v1.metadata.json")));
        assertEquals("1", Files.readString(root.resolve("iceberg/logs/metadata/version-hint.text")).trim());

        JsonNode unchanged = sync(store);
        assertFalse(unchanged.get("changed").asBoolean());
        assertEquals(1, unchanged.get("version").asInt());

        var compact = CliProcess.run(dir, "compact", "--store", store, "--once", "--no-rollup", "--json");
        assertEquals(0, compact.exit(), compact.err());
        // The view's snapshot still names the retired inputs: GC, even with no grace, must keep them.
        var gc = CliProcess.run(dir, "gc", "--store", store, "--grace", "0s", "--json");
        assertEquals(0, gc.exit(), gc.err());
        assertEquals(14, ingestAndCompacted(root).size(), "12 retired inputs kept for the view, 2 outputs");

        JsonNode after = sync(store);
        assertEquals(2, after.get("version").asInt());
        assertEquals(12, after.get("files_removed").asInt());
        assertEquals(2, after.get("files_added").asInt());
        assertEquals(2, after.get("live_files").asInt());

        // The successor is older than the grace (none): the first snapshot is expired, and the inputs go.
        var gc2 = CliProcess.run(dir, "gc", "--store", store, "--grace", "0s", "--json");
        assertEquals(0, gc2.exit(), gc2.err());
        assertEquals(2, ingestAndCompacted(root).size(), "only the live outputs remain");

        var text = CliProcess.run(dir, "iceberg", "sync", "--store", store);
        assertEquals(0, text.exit(), text.err());
        assertTrue(text.out().startsWith("iceberg sync: file:"), text.out());
        // Version 3: the expiry of the old snapshot was a commit of its own.
        assertTrue(text.out().contains("version 3 unchanged (2 partition(s) read, 2 live file(s))"), text.out());

        var missing = CliProcess.run(dir, "iceberg");
        assertEquals(2, missing.exit(), missing.err());
        assertTrue(missing.err().contains("missing command"), missing.err());
    }

    @Test
    void serve_with_iceberg_enabled_syncs_what_its_sweep_commits() throws Exception {
        Path root = dir.resolve("s");
        String store = root.toString();
        assertEquals(0, CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "1", "--files-per-hour", "3", "--rows-per-file", "50").exit());
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_ICEBERG_ENABLED", "true"), "serve",
                "--store", store, "--http", "127.0.0.1:0", "--interval", "1h")) {
            // The start's reconciliation publishes the three ingest files, or (if the sweep commits first) the
            // compacted one; the compaction's commit reaches the view without another reconciliation.
            JsonNode synced = JSON.readTree(serve.awaitLine(false, l -> l.contains("\"ourios.iceberg.synced\"")
                    && l.contains("\"ourios.iceberg.live_files\":1,"), Duration.ofMinutes(3)));
            assertEquals(1, synced.get("Attributes").get("ourios.iceberg.files_added").asInt(), synced.toString());
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
        assertTrue(Files.exists(root.resolve("iceberg/logs/metadata/v1.metadata.json")));
        JsonNode again = sync(store);
        assertFalse(again.get("changed").asBoolean(), "the sweep's sync already published the compacted file");
        assertEquals(1, again.get("live_files").asInt());
    }

    @Test
    void iceberg_enabled_without_compaction_stops_serve_at_start() throws Exception {
        var r = CliProcess.run(dir, Map.of("OURIOS_ICEBERG_ENABLED", "true", "OURIOS_COMPACTION_ENABLED", "false"),
                "serve", "--store", dir.resolve("s").toString(), "--http", "127.0.0.1:0");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("iceberg.enabled (env OURIOS_ICEBERG_ENABLED): needs compaction.enabled"),
                r.err());
    }

    @Test
    void a_view_keeps_its_time_type_and_a_sync_asking_for_the_other_is_refused_in_one_line() throws Exception {
        String store = dir.resolve("forms").toString();
        assertEquals(0, CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "1", "--files-per-hour", "2", "--rows-per-file", "50").exit());
        var made = CliProcess.run(dir, "iceberg", "sync", "--store", store, "--time-type", "long", "--json");
        assertEquals(0, made.exit(), made.err());
        assertEquals(2, JSON.readTree(made.outLines().get(0)).get("files_added").asInt());

        var other = CliProcess.run(dir, "iceberg", "sync", "--store", store);
        assertEquals(1, other.exit(), other.out());
        assertEquals(1, other.err().strip().lines().count(), other.err());
        assertTrue(other.err().contains("not the time type 'timestamp_ns'")
                && other.err().contains("delete the store's iceberg/ directory"), other.err());

        var same = CliProcess.run(dir, "iceberg", "sync", "--store", store, "--time-type", "LONG");
        assertEquals(0, same.exit(), same.err());

        var bad = CliProcess.run(dir, "iceberg", "sync", "--store", store, "--time-type", "micros");
        assertEquals(2, bad.exit(), bad.err());
        assertTrue(bad.err().contains("--time-type: unknown time type 'micros' (one of timestamp_ns, long)"),
                bad.err());
    }

    @Test
    void an_unknown_time_type_in_the_configuration_stops_serve_at_start() throws Exception {
        var r = CliProcess.run(dir, Map.of("OURIOS_ICEBERG_TIME_TYPE", "nanos"),
                "serve", "--store", dir.resolve("s").toString(), "--http", "127.0.0.1:0");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("iceberg.time_type (env OURIOS_ICEBERG_TIME_TYPE): unknown time type 'nanos'"),
                r.err());
    }

    private JsonNode sync(String store) throws Exception {
        var r = CliProcess.run(dir, "iceberg", "sync", "--store", store, "--json");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.outLines();
        assertEquals(1, lines.size(), r.out());
        return JSON.readTree(lines.get(0));
    }

    private static List<Path> ingestAndCompacted(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root.resolve("data"))) {
            return s.filter(p -> p.getFileName().toString().endsWith(".parquet")
                    && !p.getFileName().toString().startsWith(".")).sorted().toList();
        }
    }
}
