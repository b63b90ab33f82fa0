package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios compact --max-file-bytes} (storage.md §4.14) through the command line, as processes: an hour beyond the bound is
 * compacted into a band whose files {@code --json} names, {@code ourios files} lists each of them, {@code verify}
 * checks them against their one commit, and a count and DuckDB over the listed files find every row; an hour of four
 * times the bound compacted with {@code --share-workers 2} is the same files as with one worker, and so is that hour
 * shared by two sharded {@code compact} processes ({@code --shard 0/2}, {@code 1/2}).
 */
class BandCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void an_hour_beyond_max_file_bytes_is_compacted_listed_verified_and_counted_as_a_band() throws Exception {
        String store = dir.resolve("store").toString();
        generateHour(store);

        var compact = CliProcess.run(dir, "compact", "--store", store, "--once", "--json",
                "--now", "2026-11-02T00:00:00Z", "--max-file-bytes", "2MiB");
        assertEquals(0, compact.exit(), compact.err());
        JsonNode result = JSON.readTree(compact.outLines().get(0));
        assertEquals("committed", result.get("result").asText(), compact.out());
        assertTrue(result.get("outputs").size() >= 2, "a band: " + result);
        assertEquals(result.get("outputs").get(0).asText(), result.get("output").asText());

        var files = CliProcess.run(dir, "files", "--store", store, "--tenant", "acme");
        assertEquals(0, files.exit(), files.err());
        List<String> listed = files.outLines();
        assertEquals(result.get("outputs").size(), listed.size(), files.out());
        for (String f : listed) {
            assertTrue(f.endsWith(".compacted.parquet") && Files.size(Path.of(f)) <= 2L << 20, f);
        }

        var verify = CliProcess.run(dir, "verify", "--store", store);
        assertEquals(0, verify.exit(), verify.err() + verify.out());
        assertTrue(verify.out().contains("0 mismatched"), verify.out());

        var count = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--count");
        assertEquals(0, count.exit(), count.err());
        assertEquals("54000", count.out().strip());
        String paths = listed.stream().map(f -> "'" + f + "'").collect(Collectors.joining(","));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM read_parquet([" + paths
                        + "])")) {
            assertTrue(rs.next());
            assertEquals(54_000, rs.getLong(1), "DuckDB over the files ourios files lists");
        }

        var again = CliProcess.run(dir, "compact", "--store", store, "--once", "--json",
                "--now", "2026-11-02T00:00:00Z", "--max-file-bytes", "2MiB");
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("\"committed\":0"), "a band at rest: " + again.out());
    }

    @Test
    void two_sharded_compact_processes_share_one_hour_and_the_second_commits_the_band_one_process_writes()
            throws Exception {
        List<List<byte[]>> bands = new java.util.ArrayList<>();
        for (String layout : List.of("one", "shards")) {
            String store = dir.resolve("store-" + layout).toString();
            Path hour = generateHour(store);
            JsonNode result;
            if (layout.equals("one")) {
                result = compactOnce(store);
            } else {
                JsonNode first = compactOnce(store, "--shard", "0/2");
                assertEquals("noop", first.get("result").asText(), first.toString());
                assertTrue(first.get("reason").asText().contains("waiting for shares of other compactors (1 of 2"),
                        first.toString());
                result = compactOnce(store, "--shard", "1/2");
            }
            assertEquals("committed", result.get("result").asText(), result.toString());
            var count = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--count");
            assertEquals("54000", count.out().strip(), count.err());
            var verify = CliProcess.run(dir, "verify", "--store", store);
            assertEquals(0, verify.exit(), verify.err() + verify.out());
            bands.add(band(hour, result));
        }
        assertSameBand(bands, "shared between two processes");
    }

    /** One {@code compact --once --json} at a 1 MiB bound; its partition line. */
    private JsonNode compactOnce(String store, String... more) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("compact", "--store", store, "--once", "--json",
                "--now", "2026-11-02T00:00:00Z", "--max-file-bytes", "1MiB"));
        args.addAll(List.of(more));
        var compact = CliProcess.run(dir, args.toArray(String[]::new));
        assertEquals(0, compact.exit(), compact.err());
        return JSON.readTree(compact.outLines().get(0));
    }

    @Test
    void share_workers_write_the_same_files_as_one_worker() throws Exception {
        List<List<byte[]>> bands = new java.util.ArrayList<>();
        for (String workers : List.of("1", "2")) {
            String store = dir.resolve("store-" + workers).toString();
            Path hour = generateHour(store);
            long inputBytes;
            try (var in = Files.list(hour)) {
                inputBytes = in.mapToLong(f -> f.toFile().length()).sum();
            }
            assertTrue(inputBytes >= 4L << 20, inputBytes + " input bytes: four times the bound, so shared");
            var dry = CliProcess.run(dir, "compact", "--store", store, "--dry-run", "--json",
                    "--now", "2026-11-02T00:00:00Z", "--max-file-bytes", "1MiB");
            assertEquals(0, dry.exit(), dry.err());
            JsonNode planned = JSON.readTree(dry.outLines().get(0));
            long shares = inputBytes / (2L << 20);
            assertEquals(Math.min(64, shares), planned.get("shares").asLong(), dry.out());
            assertTrue(planned.get("expected_output").asText().startsWith(shares + " shares, files of at most "
                    + (1L << 20) + " bytes"), dry.out());
            var compact = CliProcess.run(dir, "compact", "--store", store, "--once", "--json",
                    "--now", "2026-11-02T00:00:00Z", "--max-file-bytes", "1MiB", "--share-workers", workers);
            assertEquals(0, compact.exit(), compact.err());
            JsonNode result = JSON.readTree(compact.outLines().get(0));
            assertEquals("committed", result.get("result").asText(), compact.out());
            var count = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--count");
            assertEquals("54000", count.out().strip(), count.err());
            bands.add(band(hour, result));
        }
        assertSameBand(bands, "with two share workers");
    }

    /** Generates one hour of 6 x 9,000 rows for tenant acme into the store {@code store}; the hour's directory. */
    private Path generateHour(String store) throws Exception {
        Files.createDirectories(Path.of(store));
        var g = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "1", "--files-per-hour", "6", "--rows-per-file", "9000",
                "--seed", "7");
        assertEquals(0, g.exit(), g.err());
        return Path.of(store).resolve("data/tenant_id=acme/year=2026/month=11/day=01/hour=10");
    }

    /** The bytes of each file a compaction's JSON line names as its outputs, in order. */
    private static List<byte[]> band(Path hour, JsonNode result) throws java.io.IOException {
        List<byte[]> band = new java.util.ArrayList<>();
        for (JsonNode name : result.get("outputs")) {
            band.add(Files.readAllBytes(hour.resolve(name.asText())));
        }
        return band;
    }

    private static void assertSameBand(List<List<byte[]>> bands, String how) {
        assertEquals(bands.get(0).size(), bands.get(1).size(), "the same cut");
        for (int i = 0; i < bands.get(0).size(); i++) {
            assertTrue(java.util.Arrays.equals(bands.get(0).get(i), bands.get(1).get(i)),
                    "file " + i + " of the band is the same " + how);
        }
    }
}
