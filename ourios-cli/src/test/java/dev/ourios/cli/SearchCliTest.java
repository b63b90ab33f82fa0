package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -q} through the real CLI: {@code query}, {@code query --count}, {@code stats} and {@code delete} select the
 * same rows for the same search, the fixed flags combine with it by AND, and a bad search exits 2 naming its column.
 */
class SearchCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FROM = "2026-11-01T10:00:00Z";
    private static final String TO = "2026-11-01T12:00:00Z";

    @TempDir
    Path dir;

    private CliProcess.Result run(String... args) throws Exception {
        return CliProcess.run(dir, args);
    }

    private long count(String store, String... filters) throws Exception {
        List<String> args = new ArrayList<>(List.of("query", "--store", store, "--tenant", "acme", "--count"));
        args.addAll(List.of(filters));
        CliProcess.Result c = run(args.toArray(String[]::new));
        assertEquals(0, c.exit(), c.err());
        return Long.parseLong(c.outLines().get(0).trim());
    }

    @Test
    void query_count_stats_and_delete_select_the_same_rows_and_bad_searches_exit_2() throws Exception {
        String store = dir.resolve("s").toString();
        CliProcess.Result gen = run("generate", "--store", store, "--tenant", "acme", "--start", FROM, "--hours", "2",
                "--files-per-hour", "2", "--rows-per-file", "400", "--services", "4");
        assertEquals(0, gen.exit(), gen.err());

        long bySearch = count(store, "-q", "severity:>=warn");
        assertEquals(count(store, "--severity-min", "13"), bySearch, "-q and the flag it stands for agree");
        assertTrue(bySearch > 0);
        String typed = "attributes.app.product.quantity:>=3";
        long attribute = count(store, "-q", typed);
        assertTrue(attribute > 0);
        long both = count(store, "-q", typed, "--severity-min", "13");
        assertTrue(both <= Math.min(attribute, bySearch), "flags and -q combine by AND");
        assertEquals(both, count(store, "-q", typed + " severity:>=13"));

        CliProcess.Result rows = run("query", "--store", store, "--tenant", "acme", "--json", "-q", typed,
                "--from", FROM, "--to", TO);
        assertEquals(0, rows.exit(), rows.err());
        assertEquals(attribute, rows.outLines().size());

        CliProcess.Result stats = run("stats", "--store", store, "--tenant", "acme", "--from", FROM, "--to", TO,
                "-q", typed, "--by", "service", "--max-groups", "2", "--json");
        assertEquals(0, stats.exit(), stats.err());
        JsonNode s = JSON.readTree(stats.outLines().get(0));
        assertEquals(attribute, s.get("total").asLong(), stats.out());
        assertEquals("1m", s.get("step").asText());
        assertTrue(s.get("series").size() <= 3);

        CliProcess.Result dry = run("delete", "--store", store, "--tenant", "acme", "--from", FROM, "--to", TO,
                "-q", typed, "--dry-run", "--json");
        assertEquals(0, dry.exit(), dry.err());
        JsonNode summary = JSON.readTree(dry.outLines().get(dry.outLines().size() - 1)).get("summary");
        assertEquals(attribute, summary.get("rows_matching").asLong(), dry.out());
        assertEquals(typed, summary.get("filter").get("q").asText(), "the deletion records its search");

        for (String command : List.of("query", "delete", "stats")) {
            CliProcess.Result bad = run(command, "--store", store, "--tenant", "acme", "--from", FROM, "--to", TO,
                    "-q", "service:(cart");
            assertEquals(2, bad.exit(), command + ": " + bad.err());
            assertTrue(bad.err().contains("-q: column "), command + ": " + bad.err());
            assertTrue(bad.err().lines().count() <= 2, bad.err());
        }
        CliProcess.Result threeFields = run("stats", "--store", store, "--tenant", "acme", "--from", FROM, "--to", TO,
                "--by", "service", "--by", "severity", "--by", "scope");
        assertEquals(2, threeFields.exit(), threeFields.err());
        CliProcess.Result noWindow = run("stats", "--store", store, "--tenant", "acme");
        assertEquals(2, noWindow.exit(), noWindow.err());
    }
}
