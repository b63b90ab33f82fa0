package dev.ourios.otlp;

import dev.ourios.core.BodyKind;
import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The one mapping of OTLP log records to rows (storage spec §2), whatever the encoding they arrived in: the
 * OTLP/JSON reader of {@code ourios ingest} ({@link OtlpJsonDecoder}) and the decoder of OTLP requests
 * ({@link OtlpLogsDecoder}) read their encoding into these values, and this class alone decides the columns.
 *
 * <p>Decisions, each because a storage layer must not invent or lose data:
 * <ul>
 *   <li><b>No template mining.</b> Mining is the ingester's job, not the storage layer's. A string body becomes a
 *       lossy row ({@code body_kind} 0, {@code lossy_flag} true, {@code body} = its UTF-8 bytes, {@code template_id}
 *       0 = "no template", empty params and separators, confidence 1.0), which every reader reconstructs from
 *       {@code body} alone.</li>
 *   <li>Other bodies are {@code body_kind} 1 holding canonical AnyValue JSON; a missing body, or one with no
 *       value set, is {@code body_kind} 2 with a null body.</li>
 *   <li>Attributes (resource, scope, record) are canonical JSON; {@code resource.service.name} is the first string
 *       {@code service.name} of the resource.</li>
 *   <li>Empty strings (severity text, scope name and version, event name, schema URLs) are null: proto3 cannot
 *       tell them from "unset"; so are empty trace and span ids.</li>
 * </ul>
 * What a record must satisfy to be stored is stated here too ({@link #TRACE_ID_BYTES}, {@link #SPAN_ID_BYTES},
 * {@link #MAX_SEVERITY}, timestamps within the signed 64-bit range); each reader reports a violation in its own
 * terms (a JSON path for a file, a per-record rejection for a request).
 */
public final class OtlpRows {
    /** A trace id is 16 bytes (or absent). */
    public static final int TRACE_ID_BYTES = 16;
    /** A span id is 8 bytes (or absent). */
    public static final int SPAN_ID_BYTES = 8;
    /**
     * The largest {@code severity_number} stored: OpenTelemetry defines 0..24, the column holds 0..255 (storage
     * spec §2), and proto3 enums are open, so a sender's value within the column's range is kept as sent.
     */
    public static final int MAX_SEVERITY = 255;

    private OtlpRows() {
    }

    /** What every record of one {@code ResourceLogs} shares; its strings are shared by those rows, to save heap. */
    public record Resource(String tenantId, String attributes, String serviceName, String schemaUrl) {
    }

    /** What every record of one {@code ScopeLogs} shares. */
    public record Scope(String name, String version, String attributes, String schemaUrl) {
    }

    /** The values of one OTLP {@code LogRecord}, read from its encoding; ids null when absent. */
    public record Fields(long timeUnixNano, long observedTimeUnixNano, int severityNumber, String severityText,
            List<KeyValue> attributes, int droppedAttributesCount, int flags, byte[] traceId, byte[] spanId,
            String eventName, AnyValue body) {
    }

    public static Resource resource(String tenantId, List<KeyValue> attributes, String schemaUrl) {
        return new Resource(tenantId, AttributesJson.encode(attributes),
                AttributesJson.firstString(attributes, "service.name").orElse(null), emptyToNull(schemaUrl));
    }

    public static Scope scope(String name, String version, List<KeyValue> attributes, String schemaUrl) {
        return new Scope(emptyToNull(name), emptyToNull(version), AttributesJson.encode(attributes),
                emptyToNull(schemaUrl));
    }

    /** The row of one record. */
    public static LogRecord row(Resource resource, Scope scope, Fields f) {
        LogRecord.Builder b = LogRecord.builder(resource.tenantId())
                .resourceAttributes(resource.attributes())
                .serviceName(resource.serviceName())
                .resourceSchemaUrl(resource.schemaUrl())
                .scopeName(scope.name())
                .scopeVersion(scope.version())
                .scopeAttributes(scope.attributes())
                .scopeSchemaUrl(scope.schemaUrl())
                .timeUnixNano(f.timeUnixNano())
                .observedTimeUnixNano(f.observedTimeUnixNano())
                .severityNumber(f.severityNumber())
                .severityText(emptyToNull(f.severityText()))
                .attributes(AttributesJson.encode(f.attributes()))
                .droppedAttributesCount(f.droppedAttributesCount())
                .flags(f.flags())
                .traceId(emptyToNull(f.traceId()))
                .spanId(emptyToNull(f.spanId()))
                .eventName(emptyToNull(f.eventName()))
                .templateId(0).params(List.of()).separators(List.of()).confidence(1.0f);
        AnyValue body = f.body();
        if (body == null || body instanceof AnyValue.EmptyValue) {
            b.bodyKind(BodyKind.ABSENT).body(null).lossyFlag(false);
        } else if (body instanceof AnyValue.StringValue s) {
            // Not mined here (see class comment): the raw line is the source of truth, so the row is lossy.
            b.bodyKind(BodyKind.STRING).body(s.value().getBytes(StandardCharsets.UTF_8)).lossyFlag(true);
        } else {
            b.bodyKind(BodyKind.STRUCTURED).body(AttributesJson.encodeValue(body).getBytes(StandardCharsets.UTF_8))
                    .lossyFlag(false);
        }
        return b.build();
    }

    static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static byte[] emptyToNull(byte[] id) {
        return id == null || id.length == 0 ? null : id;
    }
}
