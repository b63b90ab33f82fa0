package dev.ourios.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.util.JsonFormat;
import dev.ourios.core.LogRecord;
import dev.ourios.core.json.JsonPathException;
import dev.ourios.testkit.Fuzzer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The OTLP/JSON file reader of {@code ourios ingest} and the request decoder of the receivers map a record to the
 * same row: random requests with values at and beyond every bound, written as the Collector's file exporter writes
 * them (OTLP/JSON, hex ids), give the rows {@link OtlpLogsDecoder} gives for the request; and a request with a record
 * the receiver refuses fails the file document as a whole, naming the path. {@code -Dourios.fuzz.seed=S} replays,
 * {@code -Dourios.fuzz.cases=N} sets the number of requests (default 1000).
 */
class OtlpDecodersAgreeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final JsonFormat.Printer printer = JsonFormat.printer().omittingInsignificantWhitespace();

    @Test
    void a_file_line_and_a_request_give_the_same_rows_or_both_refuse() throws Exception {
        long seed = Fuzzer.seed();
        System.out.println("OtlpDecodersAgreeTest seed " + seed + " (-Dourios.fuzz.seed=" + seed + " to repeat)");
        SplittableRandom master = new SplittableRandom(seed);
        OtlpLogsDecoder decoder = new OtlpLogsDecoder();
        int agreedRows = 0;
        int agreedRefusals = 0;
        for (int i = Fuzzer.cases(1000); i > 0; i--) {
            ExportLogsServiceRequest request = OtlpDecoderFuzzTest.randomRequest(master.split());
            if (i % 2 == 0) {
                request = storable(request); // half the cases hold only records both must store
            }
            String line = fileLine(request);
            String ctx = "seed " + seed + ", request " + line;
            DecodedLogs decoded = decoder.decode("t", request);
            if (decoded.rejections().isEmpty()) {
                List<LogRecord> fromFile = OtlpJsonDecoder.decode("t", line);
                assertEquals(decoded.records(), fromFile, ctx);
                agreedRows++;
            } else {
                assertThrows(JsonPathException.class, () -> OtlpJsonDecoder.decode("t", line), ctx);
                agreedRefusals++;
            }
        }
        System.out.println("OtlpDecodersAgreeTest: " + agreedRows + " requests gave the same rows, " + agreedRefusals
                + " were refused by both");
    }

    /** The request with every record made storable: ids of their lengths, times and severities in range. */
    private static ExportLogsServiceRequest storable(ExportLogsServiceRequest request) {
        ExportLogsServiceRequest.Builder b = request.toBuilder();
        for (ResourceLogs.Builder rl : b.getResourceLogsBuilderList()) {
            Resource.Builder resource = rl.getResourceBuilder();
            resource.getAttributesBuilderList().forEach(OtlpDecodersAgreeTest::storable);
            for (ScopeLogs.Builder sl : rl.getScopeLogsBuilderList()) {
                sl.getScopeBuilder().getAttributesBuilderList().forEach(OtlpDecodersAgreeTest::storable);
                for (io.opentelemetry.proto.logs.v1.LogRecord.Builder r : sl.getLogRecordsBuilderList()) {
                    r.setTraceId(resized(r.getTraceId(), OtlpRows.TRACE_ID_BYTES))
                            .setSpanId(resized(r.getSpanId(), OtlpRows.SPAN_ID_BYTES))
                            .setTimeUnixNano(r.getTimeUnixNano() & Long.MAX_VALUE)
                            .setObservedTimeUnixNano(r.getObservedTimeUnixNano() & Long.MAX_VALUE)
                            .setSeverityNumberValue(r.getSeverityNumberValue() & OtlpRows.MAX_SEVERITY);
                    r.getAttributesBuilderList().forEach(OtlpDecodersAgreeTest::storable);
                    if (r.hasBody()) {
                        storable(r.getBodyBuilder());
                    }
                }
            }
        }
        return b.build();
    }

    private static void storable(KeyValue.Builder kv) {
        storable(kv.getValueBuilder());
    }

    /** A dictionary index (profiles only) becomes a string; nested values likewise. */
    private static void storable(AnyValue.Builder v) {
        switch (v.getValueCase()) {
            case STRING_VALUE_STRINDEX -> v.setStringValue("index " + v.getStringValueStrindex());
            case ARRAY_VALUE -> v.getArrayValueBuilder().getValuesBuilderList()
                    .forEach(OtlpDecodersAgreeTest::storable);
            case KVLIST_VALUE -> v.getKvlistValueBuilder().getValuesBuilderList()
                    .forEach(OtlpDecodersAgreeTest::storable);
            default -> {
            }
        }
    }

    private static ByteString resized(ByteString id, int length) {
        if (id.isEmpty()) {
            return id;
        }
        byte[] out = new byte[length];
        id.substring(0, Math.min(length, id.size())).copyTo(out, 0);
        return ByteString.copyFrom(out);
    }

    /** The request as one line of the Collector's file exporter: proto3 JSON with hex trace and span ids. */
    private String fileLine(ExportLogsServiceRequest request) throws Exception {
        JsonNode root = JSON.readTree(printer.print(request));
        for (JsonNode rl : root.path("resourceLogs")) {
            for (JsonNode sl : rl.path("scopeLogs")) {
                for (JsonNode rec : sl.path("logRecords")) {
                    for (String id : List.of("traceId", "spanId")) {
                        if (rec.hasNonNull(id)) {
                            ((ObjectNode) rec).put(id, HexFormat.of().formatHex(
                                    Base64.getDecoder().decode(rec.get(id).textValue())));
                        }
                    }
                }
            }
        }
        return JSON.writeValueAsString(root);
    }
}
