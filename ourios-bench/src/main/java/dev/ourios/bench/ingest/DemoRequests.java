package dev.ourios.bench.ingest;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.ourios.core.LogRecord;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.gen.Template;
import dev.ourios.otlp.OtlpCodec;
import dev.ourios.otlp.UndecodableException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo generator's records as OTLP logs requests, each in both encodings: one OTLP/JSON line (what the
 * Collector's file exporter writes, the input of {@code ourios ingest}) and the same request as protobuf (what an
 * SDK posts). The JSON is written from the stored columns, which are OTLP proto3 JSON already; the protobuf is
 * that JSON parsed by the receiver's own codec, so both encodings carry the very same records.
 */
public final class DemoRequests {
    private static final String TENANT = "bench";
    private static final Instant GENERATED_HOUR = Instant.parse("2026-03-01T10:00:00Z");

    private DemoRequests() {
    }

    /**
     * {@code records} demo records in requests of {@code perRequest}, moved to the hour starting at {@code hour}:
     * live ingest carries current timestamps, so its partitions are not sealed and not compacted under the test.
     */
    public static RequestPool build(int records, int perRequest, Instant hour, long seed) throws UndecodableException {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of(TENANT), GENERATED_HOUR, 1, 1, records, seed));
        long shift = (hour.getEpochSecond() - GENERATED_HOUR.getEpochSecond()) * 1_000_000_000L;
        OtlpCodec codec = new OtlpCodec();
        List<RequestPool.Request> out = new ArrayList<>();
        Iterator<LogRecord> rows = gen.stream(TENANT, 0, 0);
        while (rows.hasNext()) {
            List<LogRecord> chunk = new ArrayList<>(perRequest);
            while (rows.hasNext() && chunk.size() < perRequest) {
                chunk.add(rows.next());
            }
            byte[] json = line(chunk, shift).getBytes(StandardCharsets.UTF_8);
            out.add(new RequestPool.Request(chunk.size(), codec.parseJson(json).toByteArray(), json));
        }
        return new RequestPool(out);
    }

    /** One ExportLogsServiceRequest as OTLP/JSON: records grouped by resource and scope, in generation order. */
    static String line(List<LogRecord> rows, long shift) {
        Map<String, Map<String, List<LogRecord>>> groups = new LinkedHashMap<>();
        for (LogRecord r : rows) {
            String scope = "{\"name\":" + quote(r.scopeName()) + ",\"version\":" + quote(r.scopeVersion()) + "}";
            groups.computeIfAbsent(r.resourceAttributes(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(scope, k -> new ArrayList<>()).add(r);
        }
        StringBuilder sb = new StringBuilder(rows.size() * 400).append("{\"resourceLogs\":[");
        String sep = "";
        for (var resource : groups.entrySet()) {
            sb.append(sep).append("{\"resource\":{\"attributes\":").append(resource.getKey()).append("},\"scopeLogs\":[");
            sep = ",";
            String scopeSep = "";
            for (var scope : resource.getValue().entrySet()) {
                sb.append(scopeSep).append("{\"scope\":").append(scope.getKey()).append(",\"logRecords\":[");
                scopeSep = ",";
                String recSep = "";
                for (LogRecord r : scope.getValue()) {
                    sb.append(recSep);
                    record(sb, r, shift);
                    recSep = ",";
                }
                sb.append("]}");
            }
            sb.append("]}");
        }
        return sb.append("]}").toString();
    }

    private static void record(StringBuilder sb, LogRecord r, long shift) {
        long time = r.timeUnixNano() == 0 ? 0 : r.timeUnixNano() + shift;
        long observed = r.observedTimeUnixNano() == null ? 0 : r.observedTimeUnixNano() + shift;
        sb.append("{\"timeUnixNano\":\"").append(time).append("\",\"observedTimeUnixNano\":\"").append(observed)
                .append("\",\"severityNumber\":").append(r.severityNumber());
        if (r.severityText() != null) {
            sb.append(",\"severityText\":").append(quote(r.severityText()));
        }
        // A row whose body is not stored is rebuilt from its template and parameters, as a query prints it.
        byte[] body = r.body() != null ? r.body() : Template.render(r.separators(), r.params());
        sb.append(",\"body\":{\"stringValue\":").append(quote(new String(body, StandardCharsets.UTF_8)))
                .append("},\"attributes\":").append(r.attributes());
        if (r.traceId() != null) {
            sb.append(",\"traceId\":\"").append(HexFormat.of().formatHex(r.traceId())).append("\",\"spanId\":\"")
                    .append(HexFormat.of().formatHex(r.spanId())).append("\",\"flags\":").append(r.flags());
        }
        sb.append('}');
    }

    private static String quote(String s) {
        return s == null ? "\"\"" : "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
    }
}
