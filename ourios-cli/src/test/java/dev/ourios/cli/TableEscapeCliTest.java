package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stored log line, service name or tenant id holding newlines, tabs or terminal escape sequences cannot forge rows
 * or drive the terminal through the text tables of {@code query}, {@code files} and {@code verify}: control
 * characters are shown escaped there, while {@code --json} keeps the exact strings.
 */
class TableEscapeCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TENANT = "evil\ntenant\u001b[2J";
    private static final String SERVICE = "svc\tFAKE";
    private static final String BODY = "line one\n2026-11-01T10:00:00Z  forged   ERROR  row\r\u001b[31mred\u0007\u009b";

    @TempDir
    Path dir;

    @Test
    void escape_shows_control_characters_and_keeps_everything_else() {
        assertEquals("a\\nb\\tc\\r\\u001b[31m\\u0000\\u007f\\u009b\\u2028\\u202e", TableText.escape(
                "a\nb\tc\r\u001b[31m\u0000\u007f\u009b\u2028\u202e"));
        assertEquals("caf\u00e9 \uD83D\uDE00 C:\\temp", TableText.escape("caf\u00e9 \uD83D\uDE00 C:\\temp"));
        String plain = "plain";
        assertTrue(plain == TableText.escape(plain), "nothing to escape: the same string");
    }

    @Test
    void query_files_and_verify_tables_escape_hostile_strings() throws Exception {
        String store = dir.resolve("s").toString();
        Map<String, Object> doc = Map.of("resourceLogs", List.of(Map.of(
                "resource", Map.of("attributes", List.of(Map.of("key", "service.name",
                        "value", Map.of("stringValue", SERVICE)))),
                "scopeLogs", List.of(Map.of("logRecords", List.of(Map.of(
                        "timeUnixNano", "1793527200000000000", "severityNumber", 17, "severityText", "ERR\nOR",
                        "body", Map.of("stringValue", BODY))))))));
        Path input = Files.writeString(dir.resolve("in.jsonl"), JSON.writeValueAsString(doc) + "\n");
        CliProcess.Result ingest = CliProcess.run(dir, "ingest", "--store", store, "--tenant", TENANT,
                input.toString());
        assertEquals(0, ingest.exit(), ingest.err());

        CliProcess.Result q = CliProcess.run(dir, "query", "--store", store, "--tenant", TENANT);
        assertEquals(0, q.exit(), q.err());
        assertEquals(1, q.outLines().size(), "one row, one line: " + q.out());
        String line = q.outLines().get(0);
        assertTrue(line.contains("svc\\tFAKE"), line);
        assertTrue(line.contains("ERR\\nOR"), line);
        assertTrue(line.endsWith("line one\\n2026-11-01T10:00:00Z  forged   ERROR  row\\r\\u001b[31mred\\u0007\\u009b"),
                line);
        assertNoControlCharacters(q.out());

        CliProcess.Result json = CliProcess.run(dir, "query", "--store", store, "--tenant", TENANT, "--json");
        assertEquals(0, json.exit(), json.err());
        assertEquals(BODY, JSON.readTree(json.outLines().get(0)).get("body").asText(), "JSON keeps the exact body");
        assertEquals(TENANT, JSON.readTree(json.outLines().get(0)).get("tenant_id").asText());

        CliProcess.Result files = CliProcess.run(dir, "files", "--store", store, "--tenant", TENANT);
        assertEquals(0, files.exit(), files.err());
        assertEquals(1, files.outLines().size(), files.out());
        assertNoControlCharacters(files.out());

        CliProcess.Result verify = CliProcess.run(dir, "verify", "--store", store);
        assertEquals(0, verify.exit(), verify.err());
        assertEquals(2, verify.outLines().size(), "one partition line and the summary: " + verify.out());
        assertTrue(verify.outLines().get(0).startsWith("evil\\ntenant\\u001b[2J "), verify.out());
        assertNoControlCharacters(verify.out());
    }

    private static void assertNoControlCharacters(String out) {
        String withoutLineEnds = out.replace("\n", "");
        assertFalse(withoutLineEnds.chars().anyMatch(c -> TableText.needsEscape((char) c)), out);
    }
}
