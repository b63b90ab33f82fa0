package dev.ourios.cli;

import dev.ourios.server.query.RecordJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.core.BodyKind;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import dev.ourios.parquet.LogSchema;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.LocalObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A row printed as JSON shows every column the store keeps; held to the schema's own column list. */
class RecordJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void everySchemaColumnHasAJsonField() {
        Set<String> columns = new TreeSet<>();
        for (Type t : LogSchema.base().messageType().getFields()) {
            columns.add(t.getName());
        }
        assertEquals(columns, new TreeSet<>(RecordJson.FIELD_OF_COLUMN.keySet()),
                "a schema column has no JSON field in RecordJson.FIELD_OF_COLUMN (or the map names a column the "
                        + "schema does not have)");
    }

    @Test
    void aStoredRowPrintsEveryFieldWithItsValue() throws Exception {
        var store = new LocalObjectStore(dir);
        var extras = new TreeMap<String, org.apache.parquet.schema.PrimitiveType>();
        extras.put("attr.latency", LogSchema.doubleColumn("attr.latency"));
        LogRecord in = full();
        try (LogFileWriter w = new LogFileWriter(store.create("r.parquet"), WriterOptions.ingest().withExtras(extras))) {
            w.write(in);
            w.commit();
        }
        List<LogRecord> read = new ArrayList<>();
        try (LogFileReader r = LogFileReader.open(store, "r.parquet", ReadOptions.all())) {
            for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                read.add(rec);
            }
        }
        JsonNode row = JSON.readTree(Output.json(RecordJson.of(read.get(0))));
        for (String field : RecordJson.FIELD_OF_COLUMN.values()) {
            assertNotNull(row.get(field), "field '" + field + "' missing from " + row);
            assertEquals(false, row.get(field).isNull(), "field '" + field + "' is null in " + row);
        }
        assertEquals("7", row.get("dropped_attributes_count").asText());
        assertEquals("[{\"key\":\"s\",\"value\":{\"stringValue\":\"v\"}}]", row.get("scope_attributes").asText());
        assertEquals("https://opentelemetry.io/schemas/1.26.0", row.get("resource_schema_url").asText());
        assertEquals("https://opentelemetry.io/schemas/1.27.0", row.get("scope_schema_url").asText());
        assertEquals("[\"user \",\" logged in\"]", row.get("separators").toString());
        assertEquals(0.75, row.get("confidence").asDouble());
        assertEquals(-0.0, row.get("extras").get("attr.latency").asDouble());
        assertEquals("2025-11-29T16:00:00.000000005Z", row.get("time").asText());
    }

    private static LogRecord full() {
        long hour = 1_764_432_000_000_000_000L;
        return LogRecord.builder("acme").templateId(1048577).templateVersion(2).timeUnixNano(hour + 5)
                .observedTimeUnixNano(hour + 9).severityNumber(9).severityText("INFO").scopeName("lib")
                .scopeVersion("1.0").attributes("[{\"key\":\"a\",\"value\":{\"intValue\":\"1\"}}]")
                .droppedAttributesCount(7)
                .resourceAttributes("[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"cart\"}}]")
                .serviceName("cart").traceId(new byte[16]).spanId(new byte[8]).flags(1).eventName("login")
                .bodyKind(BodyKind.STRING).body("user 42 logged in".getBytes(StandardCharsets.UTF_8))
                .params(List.of(new Param(1, "42".getBytes(StandardCharsets.UTF_8))))
                .separators(List.of("user ".getBytes(StandardCharsets.UTF_8),
                        " logged in".getBytes(StandardCharsets.UTF_8)))
                .confidence(0.75f).lossyFlag(false)
                .scopeAttributes("[{\"key\":\"s\",\"value\":{\"stringValue\":\"v\"}}]")
                .resourceSchemaUrl("https://opentelemetry.io/schemas/1.26.0")
                .scopeSchemaUrl("https://opentelemetry.io/schemas/1.27.0").extra("attr.latency", -0.0).build();
    }
}
