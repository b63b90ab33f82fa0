package dev.ourios.otlp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.BodyKind;
import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.json.JsonPathException;
import dev.ourios.testkit.Testdata;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

class OtlpJsonDecoderTest {

    @Test
    void decodesTheProtoRepositoryExample() throws IOException {
        List<LogRecord> rows;
        try (InputStream in = Files.newInputStream(Testdata.file("otlp", "opentelemetry-proto-example-logs.json"))) {
            rows = OtlpJsonDecoder.decode("acme", in);
        }
        assertEquals(1, rows.size());
        LogRecord r = rows.get(0);
        assertEquals("acme", r.tenantId());
        assertEquals(1544712660300000000L, r.timeUnixNano());
        assertEquals(1544712660300000000L, r.observedTimeUnixNano());
        assertEquals(1544712660300000000L, r.effectiveTimeUnixNano());
        assertEquals(new PartitionKey("acme", 2018, 12, 13, 14), r.partitionKey());
        assertEquals(0, r.severityNumber());
        assertEquals("Information", r.severityText());
        assertEquals("5b8efff798038103d269b633813fc60c", Bytes.hex(r.traceId()));
        assertEquals("eee19b7ec3c1b174", Bytes.hex(r.spanId()));
        assertEquals(BodyKind.STRING, r.bodyKind());
        assertArrayEquals("Example log record".getBytes(StandardCharsets.UTF_8), r.body());
        assertTrue(r.lossyFlag());
        assertEquals(0, r.templateId());
        assertEquals(List.of(), r.params());
        assertEquals(List.of(), r.separators());
        assertEquals(1.0f, r.confidence());
        assertEquals("[{\"key\":\"string.attribute\",\"value\":{\"stringValue\":\"some string\"}},"
                + "{\"key\":\"boolean.attribute\",\"value\":{\"boolValue\":true}},"
                + "{\"key\":\"int.attribute\",\"value\":{\"intValue\":\"10\"}},"
                + "{\"key\":\"double.attribute\",\"value\":{\"doubleValue\":637.704}},"
                + "{\"key\":\"array.attribute\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"many\"},"
                + "{\"stringValue\":\"values\"}]}}},"
                + "{\"key\":\"map.attribute\",\"value\":{\"kvlistValue\":{\"values\":[{\"key\":\"some.map.key\","
                + "\"value\":{\"stringValue\":\"some value\"}}]}}}]", r.attributes());
        assertEquals("[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"my.service\"}}]",
                r.resourceAttributes());
        assertEquals("my.service", r.serviceName());
        assertEquals("my.library", r.scopeName());
        assertEquals("1.0.0", r.scopeVersion());
        assertEquals("[{\"key\":\"my.scope.attribute\",\"value\":{\"stringValue\":\"some scope attribute\"}}]",
                r.scopeAttributes());
        assertEquals(0, r.flags());
        assertEquals(0, r.droppedAttributesCount());
        assertNull(r.eventName());
        assertNull(r.resourceSchemaUrl());
        assertNull(r.scopeSchemaUrl());
    }

    @Test
    void decodesTheReferenceSampleLineByLine() throws IOException {
        List<LogRecord> rows;
        try (Reader in = Files.newBufferedReader(Testdata.file("otlp", "reference-sample.jsonl"))) {
            rows = OtlpJsonDecoder.decodeLines("t1", in);
        }
        assertEquals(4, rows.size());
        LogRecord first = rows.get(0);
        assertEquals(1775127480000000000L, first.timeUnixNano());
        assertEquals(1775127480000000123L, first.observedTimeUnixNano());
        assertEquals(9, first.severityNumber());
        assertEquals("INFO", first.severityText());
        assertEquals(1, first.flags());
        assertEquals("[{\"key\":\"user.id\",\"value\":{\"stringValue\":\"42\"}}]", first.attributes());
        assertEquals("[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"bench-app\"}},"
                + "{\"key\":\"host.name\",\"value\":{\"stringValue\":\"bench-host\"}}]", first.resourceAttributes());
        assertEquals("[]", first.scopeAttributes());
        assertEquals("bench.scope", first.scopeName());
        assertNull(first.traceId());
        assertNull(first.spanId());
        assertArrayEquals("user 42 logged in".getBytes(StandardCharsets.UTF_8), first.body());

        assertEquals(List.of(13, 17), List.of(rows.get(1).severityNumber(), rows.get(2).severityNumber()));
        assertEquals("connection refused", new String(rows.get(2).body(), StandardCharsets.UTF_8));
        rows.forEach(r -> assertEquals("bench-app", r.serviceName()));
        rows.forEach(r -> assertEquals(new PartitionKey("t1", 2026, 4, 2, 10), r.partitionKey()));

        LogRecord structured = rows.get(3);
        assertEquals(BodyKind.STRUCTURED, structured.bodyKind());
        assertFalse(structured.lossyFlag());
        assertEquals("{\"kvlistValue\":{\"values\":[{\"key\":\"event\",\"value\":{\"stringValue\":\"startup\"}},"
                + "{\"key\":\"version\",\"value\":{\"stringValue\":\"0.1.0\"}}]}}",
                new String(structured.body(), StandardCharsets.UTF_8));
    }

    @Test
    void rejectsU64AboveTheSignedRangeNamingTheField() {
        String doc = doc("{\"timeUnixNano\":\"18446744073709551615\"}");
        var e = assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decode("t", doc));
        assertEquals("resourceLogs[0].scopeLogs[1].logRecords[3].timeUnixNano: value 18446744073709551615 exceeds "
                + "the signed 64-bit range", e.getMessage());
        // The same value as a bare JSON number, and one past Long.MAX_VALUE in the observed time.
        assertEquals(e.getMessage(), assertThrows(JsonPathException.class,
                () -> OtlpJsonDecoder.decode("t", doc("{\"timeUnixNano\":18446744073709551615}"))).getMessage());
        assertEquals("resourceLogs[0].scopeLogs[1].logRecords[3].observedTimeUnixNano: value 9223372036854775808 "
                + "exceeds the signed 64-bit range", assertThrows(JsonPathException.class, () -> OtlpJsonDecoder
                .decode("t", doc("{\"observedTimeUnixNano\":\"9223372036854775808\"}"))).getMessage());
        assertTrue(assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decode("t",
                doc("{\"timeUnixNano\":\"-1\"}"))).getMessage().contains("negative"));
        // Long.MAX_VALUE itself is fine.
        assertEquals(Long.MAX_VALUE, last(OtlpJsonDecoder.decode("t", doc("{\"timeUnixNano\":\""
                + Long.MAX_VALUE + "\"}"))).timeUnixNano());
    }

    @Test
    void timestampsAsNumbersOrStrings() {
        LogRecord asNumber = last(OtlpJsonDecoder.decode("t", doc("{\"timeUnixNano\":1775127480000000001}")));
        LogRecord asString = last(OtlpJsonDecoder.decode("t", doc("{\"timeUnixNano\":\"1775127480000000001\"}")));
        assertEquals(1775127480000000001L, asNumber.timeUnixNano());
        assertEquals(asNumber, asString);
        assertEquals(1500000000000000000L,
                last(OtlpJsonDecoder.decode("t", doc("{\"timeUnixNano\":1.5e18}"))).timeUnixNano());
        assertTrue(assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decode("t",
                doc("{\"timeUnixNano\":\"12.5\"}"))).getMessage().contains("is not an integer"));
        LogRecord observedOnly = last(OtlpJsonDecoder.decode("t", doc("{\"observedTimeUnixNano\":\"7200000000000\"}")));
        assertEquals(0, observedOnly.timeUnixNano());
        assertEquals(7200000000000L, observedOnly.effectiveTimeUnixNano());
        assertEquals(new PartitionKey("t", 1970, 1, 1, 2), observedOnly.partitionKey());
    }

    @Test
    void traceAndSpanIds() {
        LogRecord upper = last(OtlpJsonDecoder.decode("t", doc(
                "{\"traceId\":\"5B8EFFF798038103D269B633813FC60C\",\"spanId\":\"EEE19B7EC3C1B174\"}")));
        LogRecord lower = last(OtlpJsonDecoder.decode("t", doc(
                "{\"traceId\":\"5b8efff798038103d269b633813fc60c\",\"spanId\":\"eee19b7ec3c1b174\"}")));
        assertArrayEquals(upper.traceId(), lower.traceId());
        assertArrayEquals(upper.spanId(), lower.spanId());
        LogRecord empty = last(OtlpJsonDecoder.decode("t", doc("{\"traceId\":\"\",\"spanId\":\"\"}")));
        assertNull(empty.traceId());
        assertNull(empty.spanId());

        var bad = assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decode("t",
                doc("{\"traceId\":\"5b8efff798038103d269b633813fc6zz\"}")));
        assertEquals("resourceLogs[0].scopeLogs[1].logRecords[3].traceId", bad.path());
        assertTrue(bad.getMessage().contains("is not hex"), bad.getMessage());
        var shortId = assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decode("t",
                doc("{\"spanId\":\"eee19b7e\"}")));
        assertEquals("resourceLogs[0].scopeLogs[1].logRecords[3].spanId: expected 16 hex digits (8 bytes), got 8 "
                + "characters", shortId.getMessage());
        assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decode("t", doc("{\"spanId\":\"+eee19b7ec3c1b17\"}")));
    }

    @Test
    void bodies() {
        LogRecord kv = last(OtlpJsonDecoder.decode("t", doc("{\"body\":{\"kvlistValue\":{\"values\":["
                + "{\"key\":\"a\",\"value\":{\"intValue\":5}},{\"key\":\"b\",\"value\":{\"arrayValue\":{}}}]}}}")));
        assertEquals(BodyKind.STRUCTURED, kv.bodyKind());
        assertEquals("{\"kvlistValue\":{\"values\":[{\"key\":\"a\",\"value\":{\"intValue\":\"5\"}},"
                + "{\"key\":\"b\",\"value\":{\"arrayValue\":{\"values\":[]}}}]}}",
                new String(kv.body(), StandardCharsets.UTF_8));
        assertEquals(1.0f, kv.confidence());
        assertEquals(List.of(), kv.params());

        LogRecord missing = last(OtlpJsonDecoder.decode("t", doc("{}")));
        assertEquals(BodyKind.ABSENT, missing.bodyKind());
        assertNull(missing.body());
        assertFalse(missing.lossyFlag());
        LogRecord emptyValue = last(OtlpJsonDecoder.decode("t", doc("{\"body\":{}}")));
        assertEquals(BodyKind.ABSENT, emptyValue.bodyKind());

        LogRecord utf8 = last(OtlpJsonDecoder.decode("t", doc("{\"body\":{\"stringValue\":\"h\u00e9 😀\"}}")));
        assertArrayEquals("h\u00e9 😀".getBytes(StandardCharsets.UTF_8), utf8.body());
        LogRecord number = last(OtlpJsonDecoder.decode("t", doc("{\"body\":{\"doubleValue\":1.5}}")));
        assertEquals("{\"doubleValue\":1.5}", new String(number.body(), StandardCharsets.UTF_8));
    }

    @Test
    void otherFields() {
        LogRecord r = last(OtlpJsonDecoder.decode("t", doc("{\"severityNumber\":\"SEVERITY_NUMBER_WARN2\","
                + "\"droppedAttributesCount\":3,\"flags\":\"4294967295\",\"eventName\":\"app.start\","
                + "\"unknownField\":{\"x\":1}}")));
        assertEquals(14, r.severityNumber());
        assertEquals(3, r.droppedAttributesCount());
        assertEquals(-1, r.flags(), "u32 carried bit for bit");
        assertEquals("app.start", r.eventName());
        assertEquals(17, last(OtlpJsonDecoder.decode("t", doc("{\"severityNumber\":\"SEVERITY_NUMBER_ERROR\"}")))
                .severityNumber());
        // An open enum: a number beyond OpenTelemetry's 0..24 is kept as sent, as the OTLP receiver keeps it.
        assertEquals(25, last(OtlpJsonDecoder.decode("t", doc("{\"severityNumber\":25}"))).severityNumber());
        assertEquals(255, last(OtlpJsonDecoder.decode("t", doc("{\"severityNumber\":255}"))).severityNumber());
        assertTrue(assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decode("t",
                doc("{\"severityNumber\":256}"))).getMessage().endsWith("severityNumber: value 256 is outside the "
                + "severity range 0..255"));
        assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decode("t", doc("{\"flags\":4294967296}")));
        assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decode("t", doc("{\"severityText\":9}")));
    }

    @Test
    void snakeCaseSchemaUrlsAndMissingResource() {
        String json = "{\"resource_logs\":[{\"schema_url\":\"https://opentelemetry.io/schemas/1.24.0\","
                + "\"scope_logs\":[{\"schemaUrl\":\"s-url\",\"log_records\":[{\"time_unix_nano\":\"5\","
                + "\"severity_number\":9}]}]}]}";
        LogRecord r = last(OtlpJsonDecoder.decode("t", json));
        assertEquals(5, r.timeUnixNano());
        assertEquals(9, r.severityNumber());
        assertEquals("https://opentelemetry.io/schemas/1.24.0", r.resourceSchemaUrl());
        assertEquals("s-url", r.scopeSchemaUrl());
        assertEquals("[]", r.resourceAttributes());
        assertNull(r.serviceName());
        assertNull(r.scopeName());

        LogRecord intService = last(OtlpJsonDecoder.decode("t", "{\"resourceLogs\":[{\"resource\":{\"attributes\":["
                + "{\"key\":\"service.name\",\"value\":{\"intValue\":1}},"
                + "{\"key\":\"service.name\",\"value\":{\"stringValue\":\"late\"}}]},"
                + "\"scopeLogs\":[{\"logRecords\":[{}]}]}]}"));
        assertNull(intService.serviceName(), "only the first occurrence counts, and only if it is a string");
        assertEquals(List.of(), OtlpJsonDecoder.decode("t", "{}"));
    }

    @Test
    void documentLevelErrors() {
        assertThrows(IllegalArgumentException.class, () -> OtlpJsonDecoder.decode("", "{}"));
        assertTrue(assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decode("t", "{\"resourceLogs\":"))
                .getMessage().startsWith("malformed JSON"));
        assertEquals("resourceLogs", assertThrows(JsonPathException.class,
                () -> OtlpJsonDecoder.decode("t", "{\"resourceLogs\":{}}")).path());
        assertEquals("resourceLogs[0].resource.attributes[0].value.intValue", assertThrows(JsonPathException.class,
                () -> OtlpJsonDecoder.decode("t", "{\"resourceLogs\":[{\"resource\":{\"attributes\":["
                        + "{\"key\":\"n\",\"value\":{\"intValue\":\"x\"}}]}}]}")).path());
        assertTrue(assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decode("t",
                new java.io.ByteArrayInputStream(doc("{\"body\":{\"doubleValue\":9e99999999999}}")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                .getMessage().startsWith("number out of range: 9e99999999999"), "an exponent no number can hold");
        for (String huge : List.of("\"17751274e1000000000\"", "1e1000000000", "\"1e-1000000000\"")) {
            assertEquals("resourceLogs[0].scopeLogs[1].logRecords[3].timeUnixNano", assertThrows(
                    JsonPathException.class, () -> OtlpJsonDecoder.decode("t", doc("{\"timeUnixNano\":" + huge + "}")))
                    .path(), "a few bytes of exponent must not become a gigabyte integer: " + huge);
        }
        assertEquals(0L, OtlpJsonDecoder.decode("t", doc("{\"timeUnixNano\":\"0e1000000000\"}")).get(3)
                .timeUnixNano());
        String lines = "{\"resourceLogs\":[]}\n\n" + doc("{\"traceId\":\"00\"}") + "\n";
        var e = assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decodeLines("t", new StringReader(lines)));
        assertTrue(e.getMessage().startsWith("line 3: resourceLogs[0].scopeLogs[1].logRecords[3].traceId: "),
                e.getMessage());
    }

    /** A document whose interesting record sits at resourceLogs[0].scopeLogs[1].logRecords[3]. */
    private static String doc(String record) {
        return "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
                + "{\"stringValue\":\"svc\"}}]},\"scopeLogs\":[{\"logRecords\":[{}]},{\"scope\":{\"name\":\"s\"},"
                + "\"logRecords\":[{},{},{},"
                + record + "]}]}]}";
    }

    private static LogRecord last(List<LogRecord> rows) {
        return rows.get(rows.size() - 1);
    }
}
