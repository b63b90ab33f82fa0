package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios verify} through real processes on manifests written by hand: a commit record without a checksum is
 * reported as "no recorded checksum" and exits 0, a checksum that does not match still exits 1, and a manifest
 * without {@code files} is refused with one line naming the manifest and the field.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class VerifyCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MANIFEST_1 = "manifest.00000000000000000001.json";

    @TempDir
    Path dir;

    /** Two hours of tenant acme, compacted: each partition at generation 1 with a complete commit record. */
    private String compactedStore() throws Exception {
        String store = dir.resolve("s").toString();
        var gen = CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "2", "--files-per-hour", "3", "--rows-per-file", "100");
        assertEquals(0, gen.exit(), gen.err());
        var compact = CliProcess.run(dir, "compact", "--store", store, "--once", "--no-rollup");
        assertEquals(0, compact.exit(), compact.err());
        return store;
    }

    private Path hour(int h) {
        return dir.resolve("s/data/tenant_id=acme/year=2026/month=11/day=01/hour=" + h);
    }

    /** The manifest's commit record, for a test to edit and write back as a person would. */
    private static ObjectNode readManifest(Path partition) throws Exception {
        return (ObjectNode) JSON.readTree(Files.readAllBytes(partition.resolve(MANIFEST_1)));
    }

    private static void writeManifest(Path partition, ObjectNode tree) throws Exception {
        Files.write(partition.resolve(MANIFEST_1), JSON.writeValueAsBytes(tree));
    }

    /** Verify's JSON lines by partition label, and its summary. */
    private static Map<String, JsonNode> byPartition(CliProcess.Result r) throws Exception {
        Map<String, JsonNode> out = new TreeMap<>();
        for (String line : r.outLines()) {
            JsonNode n = JSON.readTree(line);
            out.put(n.has("summary") ? "summary" : n.get("partition").asText(), n);
        }
        return out;
    }

    private static List<String> errorLines(CliProcess.Result r) {
        return r.errLines().stream().filter(l -> l.startsWith("ourios: ")).toList();
    }

    @Test
    void a_commit_without_checksum_is_reported_and_exits_0_while_a_real_mismatch_exits_1() throws Exception {
        String store = compactedStore();
        ObjectNode ten = readManifest(hour(10));
        ((ObjectNode) ten.get("commit")).remove("checksum");
        writeManifest(hour(10), ten);

        var text = CliProcess.run(dir, "verify", "--store", store);
        assertEquals(0, text.exit(), text.out() + text.err());
        assertEquals(List.of(), errorLines(text), "a missing checksum is not an error: " + text.err());
        String tenLine = text.outLines().stream().filter(l -> l.contains("2026-11-01T10")).findFirst().orElseThrow();
        assertTrue(tenLine.contains("no recorded checksum") && tenLine.contains("gen 1, 1 files, 300 rows"), tenLine);
        String elevenLine = text.outLines().stream().filter(l -> l.contains("2026-11-01T11")).findFirst()
                .orElseThrow();
        assertTrue(elevenLine.contains(" ok ") && !elevenLine.contains("no recorded checksum"), elevenLine);
        assertTrue(text.out().contains("verified 2 partitions: 0 mismatched, 1 with no recorded checksum"),
                text.out());

        var json = CliProcess.run(dir, "verify", "--store", store, "--json");
        assertEquals(0, json.exit(), json.out() + json.err());
        Map<String, JsonNode> lines = byPartition(json);
        assertEquals("no_checksum", lines.get("2026-11-01T10").get("result").asText(), json.out());
        assertEquals(300, lines.get("2026-11-01T10").get("rows").asLong());
        assertEquals(0, lines.get("2026-11-01T10").get("problems").size());
        assertEquals("ok", lines.get("2026-11-01T11").get("result").asText(), json.out());
        JsonNode summary = lines.get("summary").get("summary");
        assertEquals(2, summary.get("partitions").asInt());
        assertEquals(0, summary.get("mismatched").asInt());
        assertEquals(1, summary.get("no_checksum").asInt());

        // A recorded checksum that the file does not match still fails the run.
        ObjectNode eleven = readManifest(hour(11));
        ObjectNode commit = (ObjectNode) eleven.get("commit");
        String recorded = commit.get("checksum").asText();
        String wrong = recorded.substring(0, recorded.length() - 1) + (recorded.endsWith("0") ? "1" : "0");
        commit.put("checksum", wrong);
        writeManifest(hour(11), eleven);
        var bad = CliProcess.run(dir, "verify", "--store", store, "--json");
        assertEquals(1, bad.exit(), bad.out() + bad.err());
        Map<String, JsonNode> badLines = byPartition(bad);
        assertEquals("mismatch", badLines.get("2026-11-01T11").get("result").asText(), bad.out());
        assertEquals("no_checksum", badLines.get("2026-11-01T10").get("result").asText(), bad.out());
        assertEquals(1, badLines.get("summary").get("summary").get("mismatched").asInt());
        List<String> errors = errorLines(bad);
        assertEquals(1, errors.size(), bad.err());
        String output = commit.get("output").asText();
        assertTrue(errors.get(0).contains(output) && errors.get(0).contains("differs from the one recorded at commit")
                && errors.get(0).contains(wrong), errors.get(0));
    }

    @Test
    void a_hand_written_manifest_without_files_is_refused_with_one_line_naming_it_and_the_field() throws Exception {
        String store = compactedStore();
        ObjectNode ten = readManifest(hour(10));
        ten.remove("files");
        writeManifest(hour(10), ten);

        var v = CliProcess.run(dir, "verify", "--store", store);
        assertEquals(1, v.exit(), v.out() + v.err());
        List<String> errors = errorLines(v);
        assertEquals(1, errors.size(), v.err());
        assertTrue(errors.get(0).contains("hour=10/" + MANIFEST_1) && errors.get(0).contains("'files' is missing"),
                errors.get(0));
        assertTrue(v.out().contains("verified 2 partitions: 1 mismatched, 0 with no recorded checksum"), v.out());

        var q = CliProcess.run(dir, "query", "--store", store, "--tenant", "acme", "--json");
        assertEquals(1, q.exit(), q.err());
        List<String> queryErrors = errorLines(q);
        assertEquals(1, queryErrors.size(), q.err());
        assertTrue(queryErrors.get(0).contains("hour=10/" + MANIFEST_1)
                && queryErrors.get(0).contains("'files' is missing"), queryErrors.get(0));
        try (Stream<Path> s = Files.list(hour(10))) {
            assertTrue(s.anyMatch(f -> f.getFileName().toString().equals(MANIFEST_1)), "nothing repaired or deleted");
        }
    }
}
