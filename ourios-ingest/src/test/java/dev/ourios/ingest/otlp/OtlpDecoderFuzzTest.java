package dev.ourios.ingest.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.util.JsonFormat;
import dev.ourios.testkit.Fuzzer;
import dev.ourios.testkit.Mutator;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded fuzzing of the OTLP decoding path of {@code POST /v1/logs}: random mutations (bit flips, truncations,
 * insertions, splices, member deletions, extreme values) of valid protobuf and OTLP/JSON requests. Every case either
 * fails to parse with an {@link UndecodableException} carrying a message (a 400), or parses into a request whose
 * every record {@link OtlpLogsDecoder} turns into a row or a per-record rejection, with the receiver's screen
 * agreeing: never another exception (a 500), never a hang, never an out-of-memory error.
 *
 * <p>{@code -Dourios.fuzz.cases=N} runs N cases per encoding (default 3000); {@code -Dourios.fuzz.seed=S} replays.
 */
@Timeout(300)
class OtlpDecoderFuzzTest {
    private static final Duration PER_CASE = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final OtlpCodec codec = new OtlpCodec();
    private final OtlpLogsDecoder decoder = new OtlpLogsDecoder();

    /** Valid requests covering every value kind, ids, severities, several resources and scopes. */
    static List<ExportLogsServiceRequest> corpus() {
        Random r = new Random(11);
        List<ExportLogsServiceRequest> out = new ArrayList<>();
        for (int n = 0; n < 6; n++) {
            ExportLogsServiceRequest.Builder req = ExportLogsServiceRequest.newBuilder();
            for (int res = 0; res <= n % 2; res++) {
                ResourceLogs.Builder rl = ResourceLogs.newBuilder().setSchemaUrl("https://opentelemetry.io/schemas/1.26.0")
                        .setResource(Resource.newBuilder().addAttributes(kv("service.name", str("svc-" + n)))
                                .addAttributes(kv("host.id", AnyValue.newBuilder().setIntValue(r.nextLong()).build())));
                ScopeLogs.Builder sl = ScopeLogs.newBuilder().setScope(InstrumentationScope.newBuilder()
                        .setName("scope").setVersion("1.0").addAttributes(kv("lib", str("x"))));
                for (int i = 0; i < 1 + n; i++) {
                    byte[] trace = new byte[16];
                    byte[] span = new byte[8];
                    r.nextBytes(trace);
                    r.nextBytes(span);
                    LogRecord.Builder rec = LogRecord.newBuilder()
                            .setTimeUnixNano(1_793_527_200_000_000_000L + r.nextInt(1_000_000))
                            .setObservedTimeUnixNano(1_793_527_200_000_000_000L + r.nextInt(1_000_000))
                            .setSeverityNumber(SeverityNumber.forNumber(1 + r.nextInt(24)))
                            .setSeverityText("INFO").setTraceId(ByteString.copyFrom(trace))
                            .setSpanId(ByteString.copyFrom(span)).setFlags(1).setEventName(i == 0 ? "e" : "")
                            .addAttributes(kv("d", AnyValue.newBuilder().setDoubleValue(r.nextGaussian()).build()))
                            .addAttributes(kv("b", AnyValue.newBuilder().setBoolValue(r.nextBoolean()).build()))
                            .addAttributes(kv("bytes", AnyValue.newBuilder()
                                    .setBytesValue(ByteString.copyFrom(span)).build()));
                    rec.setBody(switch (i % 3) {
                        case 0 -> str("order " + r.nextInt(1000) + " done");
                        case 1 -> AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                                .addValues(kv("k", str("v"))).addValues(kv("n", AnyValue.newBuilder()
                                        .setArrayValue(ArrayValue.newBuilder().addValues(str("a"))
                                                .addValues(AnyValue.newBuilder().setIntValue(-1))).build())))
                                .build();
                        default -> AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(str("x")))
                                .build();
                    });
                    sl.addLogRecords(rec);
                }
                req.addResourceLogs(rl.addScopeLogs(sl));
            }
            out.add(req.build());
        }
        return out;
    }

    private static KeyValue kv(String k, AnyValue v) {
        return KeyValue.newBuilder().setKey(k).setValue(v).build();
    }

    private static AnyValue str(String s) {
        return AnyValue.newBuilder().setStringValue(s).build();
    }

    /** OTLP/JSON of a request: proto3 JSON with the trace and span ids in hex, as OTLP/JSON requires. */
    static byte[] otlpJson(ExportLogsServiceRequest req) throws Exception {
        JsonNode tree = JSON.readTree(JsonFormat.printer().print(req));
        for (JsonNode rl : tree.path("resourceLogs")) {
            for (JsonNode sl : rl.path("scopeLogs")) {
                for (JsonNode rec : sl.path("logRecords")) {
                    for (String f : List.of("traceId", "spanId")) {
                        if (rec.has(f)) {
                            ((ObjectNode) rec).put(f, HexFormat.of().formatHex(
                                    java.util.Base64.getDecoder().decode(rec.get(f).asText())));
                        }
                    }
                }
            }
        }
        return JSON.writeValueAsBytes(tree);
    }

    private static int recordCount(ExportLogsServiceRequest req) {
        return req.getResourceLogsList().stream().flatMap(rl -> rl.getScopeLogsList().stream())
                .mapToInt(ScopeLogs::getLogRecordsCount).sum();
    }

    /** What must hold for every request that parsed: each record is a row or a rejection, and screen agrees. */
    private String judge(ExportLogsServiceRequest req) {
        DecodedLogs d = decoder.decode("fuzz", req);
        int total = recordCount(req);
        if (d.records().size() + d.rejections().size() != total) {
            return d.records().size() + " rows + " + d.rejections().size() + " rejections != " + total + " records";
        }
        Screened s = decoder.screen(req);
        if (s.accepted() != d.records().size() || !s.rejections().equals(d.rejections())) {
            return "screen (" + s.accepted() + " accepted) disagrees with decode (" + d.records().size() + " rows)";
        }
        if (!decoder.decode("fuzz", d.kept()).rejections().isEmpty()) {
            return "the kept request is refused on replay";
        }
        return null;
    }

    @Test
    void mutated_protobuf_requests_decode_or_are_refused_cleanly() throws Exception {
        List<byte[]> valid = corpus().stream().map(ExportLogsServiceRequest::toByteArray).toList();
        for (byte[] v : valid) {
            assertEquals(null, judge(codec.parseProtobuf(v)), "a valid request is judged clean");
        }
        Fuzzer.Result r = new Fuzzer("otlp-protobuf", new Mutator(valid), PER_CASE).run(Fuzzer.seed(),
                Fuzzer.cases(3000), UndecodableException.class, b -> judge(codec.parseProtobuf(b)));
        assertEquals(r.cases(), r.accepted() + r.refused());
    }

    @Test
    void mutated_otlp_json_requests_decode_or_are_refused_cleanly() throws Exception {
        List<byte[]> valid = new ArrayList<>();
        for (ExportLogsServiceRequest req : corpus()) {
            valid.add(otlpJson(req));
        }
        valid.add(("{\"resource_logs\":[{\"scope_logs\":[{\"log_records\":[{\"time_unix_nano\":1793527200000000000,"
                + "\"severity_number\":\"SEVERITY_NUMBER_WARN\",\"trace_id\":\"0af7651916cd43dd8448eb211c80319c\","
                + "\"body\":{\"string_value\":\"snake\"}}]}]}]}").getBytes(StandardCharsets.UTF_8));
        for (byte[] v : valid) {
            assertEquals(null, judge(codec.parseJson(v)), "a valid request is judged clean");
        }
        Fuzzer.Result r = new Fuzzer("otlp-json", new Mutator(valid), PER_CASE).run(Fuzzer.seed(),
                Fuzzer.cases(3000), UndecodableException.class, b -> judge(codec.parseJson(b)));
        assertEquals(r.cases(), r.accepted() + r.refused());
    }
}
