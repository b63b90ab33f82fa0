package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.parquet.footer.FooterInspector;
import dev.ourios.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios delete} through the real CLI: the dry run counts exactly what {@code query --count} counts with the
 * same filters and changes nothing; the deletion removes those rows and nothing else, {@code verify} passes, the
 * audit series shows a {@code delete} event per rewritten partition with the filter; bad requests exit 2.
 */
class DeleteCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] WINDOW = {"--from", "2026-11-01T10:00:00Z", "--to", "2026-11-01T11:30:00Z"};

    @TempDir
    Path dir;

    private long count(String store, String... filters) throws Exception {
        List<String> args = new ArrayList<>(List.of("query", "--store", store, "--tenant", "acme", "--count"));
        args.addAll(List.of(filters));
        var c = CliProcess.run(dir, args.toArray(String[]::new));
        assertEquals(0, c.exit(), c.err());
        return Long.parseLong(c.outLines().get(0).trim());
    }

    private CliProcess.Result delete(String store, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("delete", "--store", store, "--tenant", "acme"));
        args.addAll(List.of(more));
        return CliProcess.run(dir, args.toArray(String[]::new));
    }

    @Test
    void theDryRunCountsWhatTheQueryCountsAndTheDeletionRemovesExactlyThat() throws Exception {
        String store = dir.resolve("s").toString();
        var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "2", "--files-per-hour", "3", "--rows-per-file", "200");
        assertEquals(0, gen.exit(), gen.err());
        long total = count(store);
        String[] filter = {WINDOW[0], WINDOW[1], WINDOW[2], WINDOW[3], "--severity-min", "13"};
        long matching = count(store, filter);
        assertTrue(matching > 0 && matching < total, matching + " of " + total);

        List<String> dryArgs = new ArrayList<>(List.of(filter));
        dryArgs.addAll(List.of("--dry-run", "--json"));
        var dry = delete(store, dryArgs.toArray(String[]::new));
        assertEquals(0, dry.exit(), dry.err());
        JsonNode drySummary = JSON.readTree(dry.outLines().get(dry.outLines().size() - 1)).get("summary");
        assertEquals(matching, drySummary.get("rows_matching").asLong(), dry.out());
        assertEquals(2, drySummary.get("affected").asLong(), dry.out());
        assertEquals("acme", drySummary.get("filter").get("tenant").asText());
        assertEquals(13, drySummary.get("filter").get("severity_min").asInt());
        assertEquals(total, count(store), "a dry run changes nothing");

        List<String> runArgs = new ArrayList<>(List.of(filter));
        runArgs.add("--json");
        var run = delete(store, runArgs.toArray(String[]::new));
        assertEquals(0, run.exit(), run.err());
        List<JsonNode> lines = new ArrayList<>();
        for (String l : run.outLines()) {
            lines.add(JSON.readTree(l));
        }
        long removed = 0;
        for (JsonNode n : lines.subList(0, lines.size() - 1)) {
            assertEquals("committed", n.get("result").asText(), n.toString());
            assertEquals(n.get("rows_in").asLong() - n.get("rows_removed").asLong(), n.get("rows_out").asLong());
            removed += n.get("rows_removed").asLong();
        }
        assertEquals(matching, removed);
        assertEquals(matching, lines.get(lines.size() - 1).get("summary").get("rows_removed").asLong());
        assertEquals(total - matching, count(store));
        assertEquals(0, count(store, filter), "no row the filter matches is left");

        var verify = CliProcess.run(dir, "verify", "--store", store);
        assertEquals(0, verify.exit(), verify.out() + verify.err());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs = c.createStatement().executeQuery("SELECT event_kind, sum(rows_removed), "
                        + "count(DISTINCT reason), min(reason) FROM read_parquet('" + store
                        + "/audit/**/*.parquet') WHERE event_type = 'delete' GROUP BY event_kind")) {
            assertTrue(rs.next());
            assertEquals(5, rs.getInt(1));
            assertEquals(matching, rs.getLong(2));
            assertEquals(1, rs.getInt(3));
            assertEquals("{\"tenant\":\"acme\",\"from\":\"2026-11-01T10:00:00Z\",\"to\":\"2026-11-01T11:30:00Z\","
                    + "\"severity_min\":13}", rs.getString(4));
        }

        var again = delete(store, filter);
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("delete: 0 rows removed from 0 partitions (2 scanned)"), again.out());
    }

    @Test
    void aRequestWithoutWindowOrWithABadFilterIsRefused() throws Exception {
        String store = dir.resolve("s").toString();
        var noWindow = delete(store, "--from", "2026-11-01T10:00:00Z");
        assertEquals(2, noWindow.exit(), noWindow.err());
        assertTrue(noWindow.err().contains("--to"), noWindow.err());
        var empty = delete(store, "--from", "2026-11-01T10:00:00Z", "--to", "2026-11-01T10:00:00Z");
        assertEquals(2, empty.exit(), empty.err());
        assertTrue(empty.err().contains("empty time window"), empty.err());
        var trace = delete(store, WINDOW[0], WINDOW[1], WINDOW[2], WINDOW[3], "--trace-id", "xyz");
        assertEquals(2, trace.exit(), trace.err());
        assertTrue(trace.err().contains("--trace-id: 'xyz' is not 32 hex digits"), trace.err());
    }

    @Test
    void theRowGroupVariableSizesTheRewrittenFileAndABadValueIsExit2() throws Exception {
        Path storeDir = dir.resolve("rg");
        String store = storeDir.toString();
        var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "1", "--files-per-hour", "3", "--rows-per-file", "300");
        assertEquals(0, gen.exit(), gen.err());
        String[] args = {"delete", "--store", store, "--tenant", "acme", WINDOW[0], WINDOW[1], WINDOW[2], WINDOW[3],
            "--severity-min", "13"};
        long total = count(store);

        var bad = CliProcess.run(dir, Map.of("OURIOS_COMPACTED_RG_BYTES", "8MiB"), args);
        assertEquals(2, bad.exit(), bad.err());
        assertTrue(bad.err().contains("OURIOS_COMPACTED_RG_BYTES: '8MiB'"), bad.err());
        assertEquals(total, count(store), "a refused deletion changes nothing");

        var small = CliProcess.run(dir, Map.of("OURIOS_COMPACTED_RG_BYTES", "1024"), args);
        assertEquals(0, small.exit(), small.err());
        List<Path> outputs;
        try (Stream<Path> all = Files.walk(storeDir)) {
            outputs = all.filter(p -> p.getFileName().toString().endsWith(".compacted.parquet")).toList();
        }
        assertEquals(1, outputs.size(), outputs.toString());
        String key = storeDir.relativize(outputs.get(0)).toString().replace('\\', '/');
        int groups = FooterInspector.inspect(new LocalObjectStore(storeDir), key).rowGroups().size();
        assertTrue(groups > 1, "1 KiB row groups, not the adaptive size: " + groups + " group(s)");
    }
}
