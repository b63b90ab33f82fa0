package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * {@code ourios compact --rollup} (storage.md §4.15) through the command line, as processes: a day's small hours
 * become one day file, {@code ourios files} lists it once, {@code verify} checks it against its commit, and a count
 * and DuckDB over the listed file find every row; a second sweep has nothing to roll up.
 */
class RollupCliTest {
    @TempDir
    Path dir;

    @Test
    void small_hours_roll_up_into_one_day_file_that_queries_files_and_verify_read() throws Exception {
        String store = Files.createDirectories(dir.resolve("store")).toString();
        var g = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "5", "--files-per-hour", "3", "--rows-per-file", "1000",
                "--seed", "7");
        assertEquals(0, g.exit(), g.err());
        var before = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--count");
        assertEquals("15000", before.out().strip(), before.err());

        var compact = CliProcess.run(dir, "compact", "--store", store, "--once", "--rollup",
                "--now", "2026-11-03T00:00:00Z");
        assertEquals(0, compact.exit(), compact.err());
        assertTrue(compact.out().contains("2026-11-01 day  committed"), compact.out());

        var files = CliProcess.run(dir, "files", "--store", store, "--tenant", "acme");
        assertEquals(0, files.exit(), files.err());
        List<String> listed = files.outLines();
        assertEquals(1, listed.size(), files.out());
        assertTrue(listed.get(0).contains("/day=01/rollup/") && listed.get(0).endsWith(".compacted.parquet"),
                files.out());

        var count = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--count");
        assertEquals(0, count.exit(), count.err());
        assertEquals("15000", count.out().strip());
        var window = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--count",
                "--from", "2026-11-01T11:00:00Z", "--to", "2026-11-01T12:00:00Z");
        assertEquals("3000", window.out().strip(), window.err());

        var verify = CliProcess.run(dir, "verify", "--store", store);
        assertEquals(0, verify.exit(), verify.err() + verify.out());
        assertTrue(verify.out().contains("0 mismatched"), verify.out());

        String paths = listed.stream().map(f -> "'" + f + "'").collect(Collectors.joining(","));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM read_parquet([" + paths
                        + "])")) {
            assertTrue(rs.next());
            assertEquals(15_000, rs.getLong(1), "DuckDB over the file ourios files lists");
        }

        var again = CliProcess.run(dir, "compact", "--store", store, "--once", "--rollup", "--json",
                "--now", "2026-11-03T00:00:00Z");
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("\"committed\":0"), "a day at rest: " + again.out());
    }

    @Test
    void compact_json_names_a_rollup_by_its_day_and_an_hour_by_its_hour() throws Exception {
        String store = Files.createDirectories(dir.resolve("store")).toString();
        var g = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "2", "--files-per-hour", "2", "--rows-per-file", "50",
                "--seed", "3");
        assertEquals(0, g.exit(), g.err());
        var compact = CliProcess.run(dir, "compact", "--store", store, "--once", "--rollup", "--json",
                "--now", "2026-11-03T00:00:00Z");
        assertEquals(0, compact.exit(), compact.err());
        List<String> rollups = compact.outLines().stream().filter(l -> l.contains("\"action\":\"rollup\""))
                .toList();
        assertEquals(1, rollups.size(), compact.out());
        assertTrue(rollups.get(0).contains("\"partition\":\"2026-11-01\","), rollups.get(0));
        assertEquals(2, compact.outLines().stream().filter(l -> l.contains("\"action\":\"compact\"")
                && l.matches(".*\"partition\":\"2026-11-01T1[01]\".*")).count(), compact.out());
    }
}
