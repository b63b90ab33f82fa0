package dev.ourios.otlp;

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

    /** A random value of any kind, nested up to {@code depth}, with the edge values the decoder must survive. */
    private static AnyValue randomValue(java.util.SplittableRandom r, int depth) {
        return switch (r.nextInt(depth > 0 ? 10 : 7)) {
            case 0 -> AnyValue.newBuilder().setStringValue(randomString(r)).build();
            case 1 -> AnyValue.newBuilder().setIntValue(r.nextBoolean() ? r.nextLong()
                    : new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1}[r.nextInt(4)]).build();
            case 2 -> AnyValue.newBuilder().setDoubleValue(new double[] {Double.NaN, Double.POSITIVE_INFINITY,
                    Double.NEGATIVE_INFINITY, -0.0, Double.MIN_VALUE, Double.MAX_VALUE, r.nextGaussian()}[r.nextInt(7)])
                    .build();
            case 3 -> AnyValue.newBuilder().setBoolValue(r.nextBoolean()).build();
            case 4 -> {
                byte[] b = new byte[r.nextInt(40)];
                r.nextBytes(b);
                yield AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(b)).build();
            }
            case 5 -> AnyValue.newBuilder().setStringValueStrindex(r.nextInt()).build();
            case 6 -> AnyValue.getDefaultInstance(); // no value set at all
            case 7, 8 -> {
                ArrayValue.Builder a = ArrayValue.newBuilder();
                for (int i = r.nextInt(4); i > 0; i--) {
                    a.addValues(randomValue(r, depth - 1));
                }
                yield AnyValue.newBuilder().setArrayValue(a).build();
            }
            default -> {
                KeyValueList.Builder l = KeyValueList.newBuilder();
                for (int i = r.nextInt(4); i > 0; i--) {
                    l.addValues(kv(randomString(r), randomValue(r, depth - 1)));
                }
                yield AnyValue.newBuilder().setKvlistValue(l).build();
            }
        };
    }

    private static String randomString(java.util.SplittableRandom r) {
        String[] edge = {"", "\u0000", "a\nb", "\u001b[31m", "\uD83D\uDE00", "\u202e", "x".repeat(300), "service.name"};
        if (r.nextInt(3) == 0) {
            return edge[r.nextInt(edge.length)];
        }
        StringBuilder sb = new StringBuilder();
        for (int i = r.nextInt(12); i > 0; i--) {
            sb.append((char) (r.nextInt(4) == 0 ? r.nextInt(0x20) : 0x20 + r.nextInt(0x2000)));
        }
        return sb.toString().replaceAll("[\uD800-\uDFFF]", "?"); // protobuf strings must be valid UTF-16/8
    }

    /** A random request: ids of any length, timestamps and severities at and beyond every bound, any values. */
    static ExportLogsServiceRequest randomRequest(java.util.SplittableRandom r) {
        ExportLogsServiceRequest.Builder req = ExportLogsServiceRequest.newBuilder();
        for (int res = r.nextInt(3); res >= 0; res--) {
            Resource.Builder resource = Resource.newBuilder();
            for (int i = r.nextInt(4); i > 0; i--) {
                resource.addAttributes(kv(r.nextInt(3) == 0 ? "service.name" : randomString(r), randomValue(r, 3)));
            }
            ResourceLogs.Builder rl = ResourceLogs.newBuilder().setResource(resource).setSchemaUrl(randomString(r));
            for (int sc = r.nextInt(3); sc >= 0; sc--) {
                InstrumentationScope.Builder scope = InstrumentationScope.newBuilder().setName(randomString(r))
                        .setVersion(randomString(r));
                if (r.nextInt(4) == 0) {
                    scope.addAttributes(kv(randomString(r), randomValue(r, 2)));
                }
                ScopeLogs.Builder sl = ScopeLogs.newBuilder().setScope(scope);
                for (int n = r.nextInt(5); n >= 0; n--) {
                    long[] times = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 1_793_527_200_000_000_000L,
                            r.nextLong()};
                    byte[] trace = new byte[new int[] {0, 16, 16, 16, 15, 17, 1}[r.nextInt(7)]];
                    byte[] span = new byte[new int[] {0, 8, 8, 8, 7, 9, 1}[r.nextInt(7)]];
                    r.nextBytes(trace);
                    r.nextBytes(span);
                    LogRecord.Builder rec = LogRecord.newBuilder().setTimeUnixNano(times[r.nextInt(times.length)])
                            .setObservedTimeUnixNano(times[r.nextInt(times.length)])
                            .setSeverityNumberValue(new int[] {0, 1, 24, 25, 255, 256, -1, Integer.MAX_VALUE,
                                    Integer.MIN_VALUE}[r.nextInt(9)])
                            .setSeverityText(randomString(r)).setTraceId(ByteString.copyFrom(trace))
                            .setSpanId(ByteString.copyFrom(span)).setFlags(r.nextInt())
                            .setDroppedAttributesCount(r.nextInt()).setEventName(randomString(r));
                    if (r.nextInt(5) > 0) {
                        rec.setBody(randomValue(r, 4));
                    }
                    for (int i = r.nextInt(4); i > 0; i--) {
                        rec.addAttributes(kv(randomString(r), randomValue(r, 3)));
                    }
                    sl.addLogRecords(rec);
                }
                rl.addScopeLogs(sl);
            }
            req.addResourceLogs(rl);
        }
        return req.build();
    }

    @Test
    void random_requests_with_edge_values_are_decoded_record_by_record() throws Exception {
        long seed = Fuzzer.seed();
        java.util.SplittableRandom master = new java.util.SplittableRandom(seed);
        List<byte[]> generated = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            generated.add(randomRequest(master.split()).toByteArray());
        }
        // The generated requests are the corpus: each case is a fresh one, or a byte-level mutant of one.
        Fuzzer.Result r = new Fuzzer("otlp-random", new Mutator(generated), PER_CASE).run(seed,
                Fuzzer.cases(3000), UndecodableException.class, b -> {
                    String fresh = judge(randomRequest(new java.util.SplittableRandom(java.util.Arrays.hashCode(b))));
                    return fresh != null ? fresh : judge(codec.parseProtobuf(b));
                });
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
