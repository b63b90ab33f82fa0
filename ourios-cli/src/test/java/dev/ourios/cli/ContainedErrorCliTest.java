package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.testkit.ForeignParquet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An error that leaves the JVM usable, met in one partition, through a real {@code ourios compact --once} process: a
 * file whose schema nests deeper than the reader's stack makes that partition's one error line (and JSON result),
 * the other partition commits, the summary counts the error, the exit status is 1, and no stack trace is printed.
 */
class ContainedErrorCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aStackOverflowInOnePartitionIsItsErrorLineAndTheSweepGoesOnWithExit1() throws Exception {
        String store = dir.resolve("s").toString();
        assertEquals(0, CliProcess.run(dir, "generate", "--store", store, "--tenant", "acme", "--start",
                "2026-11-01T10:00:00Z", "--hours", "2", "--files-per-hour", "3", "--rows-per-file", "40").exit());
        Path hour = dir.resolve("s/data/tenant_id=acme/year=2026/month=11/day=01/hour=10");
        Files.write(hour.resolve("01a22900-0000-7000-8000-00000000000c.parquet"), ForeignParquet.deeplyNested(100_000));

        var r = CliProcess.run(dir, "compact", "--store", store, "--once", "--no-rollup");

        assertEquals(1, r.exit(), r.out() + r.err());
        List<String> stderr = r.errLines().stream().filter(l -> l.startsWith("ourios: ")).toList();
        assertEquals(1, stderr.size(), r.err());
        assertTrue(stderr.get(0).contains("hour=10") && stderr.get(0).contains("nested deeper"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        assertTrue(r.out().contains("sweep: 1 committed, 0 noop, 1 error"), r.out());

        // The next sweep (a daemon's next) meets the same file: the same error, as a JSON result.
        var j = CliProcess.run(dir, "compact", "--store", store, "--once", "--no-rollup", "--json");

        assertEquals(1, j.exit(), j.out() + j.err());
        List<JsonNode> lines = new ArrayList<>();
        for (String l : j.outLines()) {
            lines.add(JSON.readTree(l));
        }
        List<JsonNode> errors = lines.stream().filter(n -> "error".equals(n.path("result").asText())).toList();
        assertEquals(1, errors.size(), j.out());
        assertEquals("2026-11-01T10", errors.get(0).get("partition").asText(), j.out());
        assertTrue(errors.get(0).get("error").asText().contains("nested deeper"), j.out());
        JsonNode summary = lines.get(lines.size() - 1).get("summary");
        assertEquals("error", summary.get("result").asText(), j.out());
        assertEquals(1, summary.get("error").asInt(), j.out());
        assertFalse(j.err().contains("\tat "), "no stack trace: " + j.err());
    }

}
