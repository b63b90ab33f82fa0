package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Type;
import org.apache.parquet.format.Util;
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
        Files.write(hour.resolve("01a22900-0000-7000-8000-00000000000c.parquet"), deeplyNested(100_000));

        var r = CliProcess.run(dir, "compact", "--store", store, "--once");

        assertEquals(1, r.exit(), r.out() + r.err());
        List<String> stderr = r.errLines().stream().filter(l -> l.startsWith("ourios: ")).toList();
        assertEquals(1, stderr.size(), r.err());
        assertTrue(stderr.get(0).contains("hour=10") && stderr.get(0).contains("nested deeper"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        assertTrue(r.out().contains("sweep: 1 committed, 0 noop, 1 error"), r.out());

        // The next sweep (a daemon's next) meets the same file: the same error, as a JSON result.
        var j = CliProcess.run(dir, "compact", "--store", store, "--once", "--json");

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

    /**
     * A Parquet file with no rows whose schema is {@code depth} groups each holding the next, then one column: a
     * small flat footer, but a reader that builds the schema tree recurses once per level.
     */
    private static byte[] deeplyNested(int depth) throws Exception {
        List<SchemaElement> schema = new ArrayList<>();
        for (int i = 0; i < depth; i++) {
            SchemaElement g = new SchemaElement("g" + i);
            g.setNum_children(1);
            if (i > 0) {
                g.setRepetition_type(FieldRepetitionType.OPTIONAL);
            }
            schema.add(g);
        }
        SchemaElement leaf = new SchemaElement("leaf");
        leaf.setType(Type.INT64);
        leaf.setRepetition_type(FieldRepetitionType.OPTIONAL);
        schema.add(leaf);
        ByteArrayOutputStream footer = new ByteArrayOutputStream();
        Util.writeFileMetaData(new FileMetaData(1, schema, 0, List.of()), footer);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        file.write("PAR1".getBytes(StandardCharsets.US_ASCII));
        footer.writeTo(file);
        file.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.size()).array());
        file.write("PAR1".getBytes(StandardCharsets.US_ASCII));
        return file.toByteArray();
    }
}
