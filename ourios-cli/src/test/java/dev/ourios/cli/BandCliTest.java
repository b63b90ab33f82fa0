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
 * checks them against their one commit, and a count and DuckDB over the listed files find every row.
 */
class BandCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void an_hour_beyond_max_file_bytes_is_compacted_listed_verified_and_counted_as_a_band() throws Exception {
        String store = Files.createDirectories(dir.resolve("store")).toString();
        var g = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "1", "--files-per-hour", "6", "--rows-per-file", "9000",
                "--seed", "7");
        assertEquals(0, g.exit(), g.err());

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
}
