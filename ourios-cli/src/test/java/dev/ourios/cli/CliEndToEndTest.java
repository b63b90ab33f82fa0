package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.testkit.Testdata;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command-line contract (CLI.md) driven through real processes: outputs, JSON lines and exit statuses. */
class CliEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static List<Path> files(Path root, String suffix) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
        }
    }

    @Test
    void generate_compact_query_files_gc_verify_round_trip() throws Exception {
        String store = dir.resolve("s").toString();
        var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "2", "--files-per-hour", "6", "--rows-per-file", "300");
        assertEquals(0, gen.exit(), gen.err());
        assertTrue(gen.out().contains("generated 12 files, 3600 rows"), gen.out());
        assertEquals(12, files(dir.resolve("s"), ".parquet").size());

        // throttled far above what this store moves: the flags are accepted and change nothing in the result
        var compact = CliProcess.run(dir, "compact", "--store", store, "--once", "--no-rollup", "--json",
                "--max-read-rate", "64MiB", "--max-write-rate", "32MiB");
        assertEquals(0, compact.exit(), compact.err());
        List<String> lines = compact.outLines();
        assertEquals(3, lines.size(), compact.out());
        for (String l : lines.subList(0, 2)) {
            JsonNode n = JSON.readTree(l);
            assertEquals("committed", n.get("result").asText());
            assertEquals("acme", n.get("tenant").asText());
            assertEquals(6, n.get("files_in").asInt());
            assertEquals(1800, n.get("rows").asLong());
            assertEquals(1, n.get("generation").asLong());
            assertTrue(n.get("output").asText().endsWith(".compacted.parquet"));
            assertTrue(n.get("error").isNull());
        }
        assertEquals(2, JSON.readTree(lines.get(2)).get("summary").get("committed").asInt());

        var again = CliProcess.run(dir, "compact", "--store", store, "--once", "--no-rollup", "--json");
        assertEquals(0, again.exit(), again.err());
        assertEquals(0, JSON.readTree(again.outLines().get(0)).get("summary").get("committed").asInt());

        var q = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--from", "2026-11-01T10:00:00Z",
                "--to", "2026-11-01T12:00:00Z", "--json", "--stats");
        assertEquals(0, q.exit(), q.err());
        List<String> ql = q.outLines();
        JsonNode stats = JSON.readTree(ql.get(ql.size() - 1)).get("stats");
        assertEquals(3600, stats.get("rows").asLong());
        assertEquals(3600, ql.size() - 1);
        for (String field : List.of("partitions", "files", "row_groups_total", "row_groups_scanned",
                "row_groups_pruned", "bytes_read", "rows", "elapsed_ms")) {
            assertTrue(stats.has(field), field + " in " + stats);
        }
        // One listing per level down to the two hours, one manifest read each, and the files' reads.
        JsonNode requests = stats.get("requests");
        assertTrue(requests.get("list").asLong() >= 2, requests.toString());
        assertTrue(requests.get("get").asLong() >= stats.get("files").asLong(), requests.toString());
        assertEquals(0, requests.get("put").asLong(), requests.toString());
        assertEquals(0, requests.get("delete").asLong(), requests.toString());
        // The same window counted: no row printed, the limit ignored, the count on its own line.
        var c = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--from", "2026-11-01T10:00:00Z",
                "--to", "2026-11-01T12:00:00Z", "--count", "--limit", "5");
        assertEquals(0, c.exit(), c.err());
        assertEquals(List.of("3600"), c.outLines());
        var cj = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--count", "--json");
        assertEquals(0, cj.exit(), cj.err());
        assertEquals(3600, JSON.readTree(cj.outLines().get(0)).get("count").asLong(), cj.out());

        var f = CliProcess.run(dir, "files", "--store", store, "--tenant", "acme");
        assertEquals(0, f.exit(), f.err());
        assertEquals(2, f.outLines().size(), f.out());
        assertTrue(f.outLines().stream().allMatch(l -> l.endsWith(".compacted.parquet") && Files.exists(Path.of(l))));

        var gc = CliProcess.run(dir, "gc", "--store", store, "--grace", "0s", "--json");
        assertEquals(0, gc.exit(), gc.err());
        assertEquals(2, files(dir.resolve("s").resolve("data"), ".parquet").size(), "only the live outputs remain");

        var v = CliProcess.run(dir, "verify", "--store", store);
        assertEquals(0, v.exit(), v.err() + v.out());
        assertTrue(v.out().contains("verified 2 partitions: 0 mismatched"), v.out());

        var inspect = CliProcess.run(dir, "inspect", f.outLines().get(0));
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("sorting columns: resource.service.name ASC NULLS FIRST"), inspect.out());
    }

    @Test
    void bad_input_gets_one_clear_line_and_exit_2_and_changes_nothing() throws Exception {
        Path junk = dir.resolve("junk.parquet");
        Files.write(junk, "definitely not parquet".getBytes());
        var r = CliProcess.run(dir, "inspect", junk.toString());
        assertEquals(2, r.exit());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("junk.parquet"), r.err());

        var flag = CliProcess.run(dir, "compact", "--store", dir.resolve("s").toString(), "--once",
                "--sort-budget", "lots");
        assertEquals(2, flag.exit());
        assertTrue(flag.err().contains("--sort-budget"), flag.err());

        var rate = CliProcess.run(dir, "compact", "--store", dir.resolve("s").toString(), "--once",
                "--max-write-rate", "fast");
        assertEquals(2, rate.exit());
        assertTrue(rate.err().contains("--max-write-rate"), rate.err());

        var unknown = CliProcess.run(dir, "compact", "--bogus");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().contains("--bogus"), unknown.err());

        var time = CliProcess.run(dir, "query", "--store", dir.resolve("s").toString(), "--tenant", "a",
                "--from", "yesterday");
        assertEquals(2, time.exit());
        assertTrue(time.err().contains("--from"), time.err());

        Path otlp = dir.resolve("bad.jsonl");
        Files.writeString(otlp, "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":"
                + "\"18446744073709551615\"}]}]}]}\n");
        var ingest = CliProcess.run(dir, "ingest", "--store", dir.resolve("s2").toString(), "--tenant", "t",
                otlp.toString());
        assertEquals(2, ingest.exit());
        assertTrue(ingest.err().contains("bad.jsonl") && ingest.err().contains("timeUnixNano"), ingest.err());
        assertTrue(!Files.exists(dir.resolve("s2")) || files(dir.resolve("s2"), ".parquet").isEmpty());
    }

    @Test
    void a_mis_partitioned_file_fails_its_partition_with_exit_1_naming_it_and_nothing_is_deleted() throws Exception {
        String store = dir.resolve("s").toString();
        assertEquals(0, CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "2", "--files-per-hour", "3", "--rows-per-file", "50").exit());
        Path h10 = dir.resolve("s/data/tenant_id=acme/year=2026/month=11/day=01/hour=10");
        Path h11 = dir.resolve("s/data/tenant_id=acme/year=2026/month=11/day=01/hour=11");
        Path moved = Files.list(h11).sorted().findFirst().orElseThrow();
        Files.copy(moved, h10.resolve("01a22900-0000-7000-8000-000000000001.parquet"));
        List<Path> before = files(dir.resolve("s"), ".parquet");

        var r = CliProcess.run(dir, "compact", "--store", store, "--once", "--no-rollup", "--json");
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode first = JSON.readTree(r.outLines().get(0));
        assertEquals("error", first.get("result").asText());
        assertTrue(first.get("error").asText().contains("01a22900-0000-7000-8000-000000000001.parquet"),
                first.toString());
        assertEquals("committed", JSON.readTree(r.outLines().get(1)).get("result").asText());
        List<Path> after = files(dir.resolve("s"), ".parquet");
        assertTrue(after.containsAll(before), "nothing deleted");
    }

    @Test
    void ingest_lands_otlp_json_per_tenant_hour() throws Exception {
        Path fixtures = Testdata.dir("otlp");
        String store = dir.resolve("s").toString();
        var r = CliProcess.run(dir, "ingest", "--store", store, "--tenant", "acme", "--json",
                fixtures.resolve("reference-sample.jsonl").toString());
        assertEquals(0, r.exit(), r.err());
        long rows = 0;
        for (String l : r.outLines()) {
            rows += JSON.readTree(l).get("rows").asLong();
        }
        assertEquals(4, rows);
        var q = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--contains", "slow query",
                "--json");
        assertEquals(0, q.exit(), q.err());
        assertEquals(1, q.outLines().size(), q.out());
        assertEquals("WARN", JSON.readTree(q.outLines().get(0)).get("severity_text").asText());
    }
}
