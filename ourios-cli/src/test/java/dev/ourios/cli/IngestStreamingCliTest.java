package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.testkit.ChildJvm;
import dev.ourios.testkit.Testdata;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios ingest} streams: an input far larger than the heap lands whole, stdin works, a line with a second
 * document or trailing garbage is refused by line number, and a run that fails part way names the files it landed
 * while a re-run lands only what is missing (content-named files, create-only publish).
 */
class IngestStreamingCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private CliProcess.Result ingest(String heap, Path stdin, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("ingest"));
        all.addAll(List.of(args));
        var b = ChildJvm.main(Main.class).name("ourios-ingest").heap(heap).workDir(dir)
                .jvmArgs("-XX:+ExitOnOutOfMemoryError")
                .removeEnv(k -> k.equals("OURIOS_STORE") || k.equals("OTEL_EXPORTER_OTLP_ENDPOINT")).args(all);
        if (stdin != null) {
            b.stdin(stdin);
        }
        try (ChildJvm cli = b.start()) {
            int exit = cli.waitFor(Duration.ofMinutes(10));
            return new CliProcess.Result(exit, cli.stdout(), cli.stderr());
        }
    }

    private long count(String store) throws Exception {
        var c = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--count");
        assertEquals(0, c.exit(), c.err());
        return Long.parseLong(c.outLines().get(0).trim());
    }

    private static List<JsonNode> landed(CliProcess.Result r) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String l : r.outLines()) {
            out.add(JSON.readTree(l));
        }
        return out;
    }

    @Test
    void a_file_far_larger_than_the_heap_lands_whole_under_96m() throws Exception {
        Path big = dir.resolve("big.jsonl");
        long records = OtlpLinesFile.write(big, 200L << 20, 20, 42);
        String store = dir.resolve("s").toString();
        var r = ingest("96m", null, "--store", store, "--tenant", "acme", "--json", big.toString());
        assertEquals(0, r.exit(), r.err());
        long rows = 0;
        for (JsonNode n : landed(r)) {
            rows += n.get("rows").asLong();
            assertFalse(n.get("already_present").asBoolean());
        }
        assertEquals(records, rows);
        assertTrue(landed(r).size() > 2, "the input was cut into bounded batches: " + landed(r).size());
        assertEquals(records, count(store));
    }

    @Test
    void stdin_is_an_input_and_lands_the_same_files_as_the_file() throws Exception {
        Path f = dir.resolve("in.jsonl");
        long records = OtlpLinesFile.write(f, 200_000, 10, 5);
        String store = dir.resolve("s").toString();
        var viaStdin = ingest("256m", f, "--store", store, "--tenant", "acme", "--json", "-");
        assertEquals(0, viaStdin.exit(), viaStdin.err());
        assertEquals(records, landed(viaStdin).stream().mapToLong(n -> n.get("rows").asLong()).sum());
        var viaFile = ingest("256m", null, "--store", store, "--tenant", "acme", "--json", f.toString());
        assertEquals(0, viaFile.exit(), viaFile.err());
        assertEquals(landed(viaStdin).stream().map(n -> n.get("file").asText()).toList(),
                landed(viaFile).stream().map(n -> n.get("file").asText()).toList(), "the same bytes, the same files");
        assertTrue(landed(viaFile).stream().allMatch(n -> n.get("already_present").asBoolean()));
        assertEquals(records, count(store), "nothing landed twice");

        // The pretty-printed single document is still an input, from stdin as from a file.
        Path pretty = Testdata.file("otlp", "opentelemetry-proto-example-logs.json");
        var doc = ingest("256m", pretty, "--store", dir.resolve("p").toString(), "--tenant", "acme", "-");
        assertEquals(0, doc.exit(), doc.err());
        assertTrue(doc.out().contains("ingested 1 records into 1 files"), doc.out());
    }

    @Test
    void a_second_document_or_trailing_garbage_on_a_line_is_refused_naming_file_and_line() throws Exception {
        Random rnd = new Random(3);
        String good = OtlpLinesFile.line(rnd, 2);
        String store = dir.resolve("s").toString();
        for (String bad : List.of(good + good, good + " " + good, good + "}", good + " trailing")) {
            Path f = dir.resolve("bad.jsonl");
            Files.writeString(f, good + "\n\n" + bad + "\n" + good + "\n");
            var r = ingest("256m", null, "--store", store, "--tenant", "acme", f.toString());
            assertEquals(2, r.exit(), r.out() + r.err());
            List<String> err = r.errLines();
            assertEquals(1, err.size(), r.err());
            assertTrue(err.get(0).startsWith("ourios: " + f + ": line 3: "), err.get(0));
            assertTrue(err.get(0).contains(bad.startsWith(good + "{") || bad.startsWith(good + " {")
                    ? "more than one JSON document" : "trailing content after the JSON document"), err.get(0));
            assertTrue(err.get(0).endsWith("; nothing landed"), err.get(0));
        }
        Path latin1 = dir.resolve("latin1.jsonl");
        byte[] head = (good + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] bad = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"caf\u00e9\"}}]}]}]}\n"
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        Files.write(latin1, java.nio.ByteBuffer.allocate(head.length + bad.length).put(head).put(bad).array());
        var r = ingest("256m", null, "--store", store, "--tenant", "acme", latin1.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().startsWith("ourios: " + latin1 + ": not UTF-8 text"), r.err());
        assertFalse(Files.exists(dir.resolve("s/data")), "nothing was written");
    }

    @Test
    void a_run_that_fails_part_way_names_what_landed_and_a_re_run_lands_only_the_rest() throws Exception {
        Random rnd = new Random(9);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            lines.add(OtlpLinesFile.line(rnd, 5));
        }
        String fixedLine = lines.get(300);
        lines.set(300, "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"traceId\":\"00\"}]}]}]}");
        Path f = dir.resolve("in.jsonl");
        Files.write(f, lines);
        String store = dir.resolve("s").toString();

        var failed = ingest("256m", null, "--store", store, "--tenant", "acme", "--batch-bytes", "64KiB", "--json",
                f.toString());
        assertEquals(2, failed.exit(), failed.err());
        List<JsonNode> first = landed(failed);
        assertTrue(first.size() >= 2, "batches landed before line 301: " + failed.out());
        assertTrue(failed.err().contains(f + ": line 301: resourceLogs[0].scopeLogs[0].logRecords[0].traceId"),
                failed.err());
        assertTrue(failed.err().contains(first.size() + " file(s) landed before the failure, listed above"),
                failed.err());
        long landedRows = first.stream().mapToLong(n -> n.get("rows").asLong()).sum();
        assertTrue(landedRows < 300 * 5);
        assertEquals(landedRows, count(store), "what landed is exactly what the output listed");

        lines.set(300, fixedLine);
        Files.write(f, lines);
        var rerun = ingest("256m", null, "--store", store, "--tenant", "acme", "--batch-bytes", "64KiB", "--json",
                f.toString());
        assertEquals(0, rerun.exit(), rerun.err());
        List<JsonNode> second = landed(rerun);
        for (JsonNode n : first) {
            assertTrue(second.stream().anyMatch(m -> m.get("file").equals(n.get("file"))
                    && m.get("already_present").asBoolean()), n + " found again, not landed twice");
        }
        assertEquals(400 * 5, count(store), "every record exactly once");

        var third = ingest("256m", null, "--store", store, "--tenant", "acme", "--batch-bytes", "64KiB", f.toString());
        assertEquals(0, third.exit(), third.err());
        assertTrue(third.out().contains("(" + second.size() + " already present)"), third.out());
        assertEquals(400 * 5, count(store));
    }
}
