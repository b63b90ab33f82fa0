package dev.ourios.core.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ourios.core.BodyKind;
import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.JsonNumbers;
import dev.ourios.core.json.JsonPathException;
import dev.ourios.core.json.JsonTrees;
import dev.ourios.core.json.KeyValue;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes OTLP/JSON log documents ({@code {"resourceLogs":[…]}}, as the Collector's file exporter writes one per
 * line, or pretty-printed) into {@link LogRecord}s of one tenant.
 *
 * <p>Decisions, each because a storage layer must not invent or lose data:
 * <ul>
 *   <li><b>No template mining.</b> Mining is the ingester's job, not the storage layer's. A string body becomes a
 *       lossy row ({@code body_kind} 0, {@code lossy_flag} true, {@code body} = its UTF-8 bytes, {@code template_id}
 *       0 = "no template", empty params and separators, confidence 1.0), which every reader reconstructs from
 *       {@code body} alone.</li>
 *   <li>Other bodies are {@code body_kind} 1 holding canonical AnyValue JSON; a missing body, or one with no
 *       value set, is {@code body_kind} 2 with a null body.</li>
 *   <li>Timestamps are unsigned on the wire but signed in Parquet: values above {@link Long#MAX_VALUE} are an error
 *       naming the field, never saturated. A missing timestamp is 0 (proto3 has no presence), which the
 *       effective-time rule reads as "unknown".</li>
 *   <li>Empty strings (severity text, scope name/version, event name, schema URLs) are null: proto3 cannot tell
 *       them from "unset".</li>
 *   <li>A document is exactly one JSON value ({@link JsonTrees}): a second document or anything else after it is an
 *       error, never silently dropped; {@code -0.0} keeps its sign.</li>
 *   <li>Field names are accepted in lowerCamelCase and in the proto's snake_case, as proto3 JSON parsers must;
 *       unknown fields are ignored (newer OTLP versions add fields).</li>
 * </ul>
 * Any invalid value fails the whole document with one message naming its JSON path, e.g.
 * {@code resourceLogs[0].scopeLogs[1].logRecords[3].timeUnixNano: value 18446744073709551615 exceeds the signed
 * 64-bit range}.
 */
public final class OtlpJsonDecoder {
    private OtlpJsonDecoder() {
    }

    /** Decodes one document given as text. */
    public static List<LogRecord> decode(String tenantId, String json) {
        return decode(tenantId, parse(json));
    }

    /** Decodes one document read whole from a stream (UTF-8); the caller owns and closes the stream. */
    public static List<LogRecord> decode(String tenantId, InputStream json) {
        return decode(tenantId, JsonTrees.readOne(json));
    }

    /**
     * Decodes a Collector file-exporter file: one document per line, blank lines skipped. Errors are prefixed
     * with the 1-based line number ({@code line 7: resourceLogs[0]…}).
     */
    public static List<LogRecord> decodeLines(String tenantId, Reader jsonLines) {
        BufferedReader in = jsonLines instanceof BufferedReader b ? b : new BufferedReader(jsonLines);
        List<LogRecord> out = new ArrayList<>();
        int lineNo = 0;
        try {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    out.addAll(decode(tenantId, line));
                } catch (JsonPathException e) {
                    String where = e.path().isEmpty() ? "line " + lineNo : "line " + lineNo + ": " + e.path();
                    throw new JsonPathException(where, e.problem(), e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Decodes one already-parsed document. */
    public static List<LogRecord> decode(String tenantId, JsonNode root) {
        if (tenantId == null || tenantId.isEmpty()) {
            throw new IllegalArgumentException("tenant id must not be empty");
        }
        if (root == null || !root.isObject()) {
            throw new JsonPathException("", "expected a JSON object {\"resourceLogs\":[…]}");
        }
        List<LogRecord> out = new ArrayList<>();
        JsonNode resourceLogs = array(root, "resourceLogs", "");
        for (int i = 0; i < resourceLogs.size(); i++) {
            decodeResourceLogs(tenantId, resourceLogs.get(i), i, out);
        }
        return out;
    }

    /**
     * Decodes element {@code index} of a document's {@code resourceLogs} array into {@code out}, so a caller
     * streaming a large document holds one element at a time.
     */
    public static void decodeResourceLogs(String tenantId, JsonNode element, int index, List<LogRecord> out) {
        String rPath = "resourceLogs[" + index + "]";
        JsonNode rl = object(element, rPath);
        JsonNode resource = field(rl, "resource");
        String resourcePath = rPath + ".resource";
        if (resource != null) {
            object(resource, resourcePath);
        }
        List<KeyValue> resourceAttrs = AttributesJson.parse(resource == null ? null : field(resource,
                "attributes"), resourcePath + ".attributes");
        var context = new ResourceContext(tenantId, AttributesJson.encode(resourceAttrs),
                AttributesJson.firstString(resourceAttrs, "service.name").orElse(null),
                string(rl, "schemaUrl", rPath));
        JsonNode scopeLogs = array(rl, "scopeLogs", rPath);
        for (int j = 0; j < scopeLogs.size(); j++) {
            decodeScope(context, object(scopeLogs.get(j), rPath + ".scopeLogs[" + j + "]"),
                    rPath + ".scopeLogs[" + j + "]", out);
        }
    }

    /** What every record of one ResourceLogs shares; the JSON string instance is shared too, to save heap. */
    private record ResourceContext(String tenantId, String resourceAttributes, String serviceName, String schemaUrl) {
    }

    private static void decodeScope(ResourceContext r, JsonNode sl, String sPath, List<LogRecord> out) {
        JsonNode scope = field(sl, "scope");
        String scopePath = sPath + ".scope";
        String scopeName = null;
        String scopeVersion = null;
        String scopeAttributes = AttributesJson.EMPTY;
        if (scope != null) {
            object(scope, scopePath);
            scopeName = string(scope, "name", scopePath);
            scopeVersion = string(scope, "version", scopePath);
            scopeAttributes = AttributesJson.encode(AttributesJson.parse(field(scope, "attributes"),
                    scopePath + ".attributes"));
        }
        String scopeSchemaUrl = string(sl, "schemaUrl", sPath);
        JsonNode records = array(sl, "logRecords", sPath);
        for (int k = 0; k < records.size(); k++) {
            String path = sPath + ".logRecords[" + k + "]";
            JsonNode rec = object(records.get(k), path);
            LogRecord.Builder b = LogRecord.builder(r.tenantId())
                    .resourceAttributes(r.resourceAttributes())
                    .serviceName(r.serviceName())
                    .resourceSchemaUrl(r.schemaUrl())
                    .scopeName(scopeName)
                    .scopeVersion(scopeVersion)
                    .scopeAttributes(scopeAttributes)
                    .scopeSchemaUrl(scopeSchemaUrl);
            decodeRecord(rec, path, b);
            out.add(b.build());
        }
    }

    private static void decodeRecord(JsonNode rec, String path, LogRecord.Builder b) {
        b.timeUnixNano(u64(rec, "timeUnixNano", path));
        b.observedTimeUnixNano(u64(rec, "observedTimeUnixNano", path));
        JsonNode sev = field(rec, "severityNumber");
        b.severityNumber(sev == null ? 0 : Severity.parse(sev, path + ".severityNumber"));
        b.severityText(string(rec, "severityText", path));
        b.attributes(AttributesJson.encode(AttributesJson.parse(field(rec, "attributes"), path + ".attributes")));
        JsonNode dropped = field(rec, "droppedAttributesCount");
        b.droppedAttributesCount(dropped == null ? 0 : JsonNumbers.u32(dropped, path + ".droppedAttributesCount"));
        JsonNode flags = field(rec, "flags");
        b.flags(flags == null ? 0 : JsonNumbers.u32(flags, path + ".flags"));
        b.traceId(HexId.parse(field(rec, "traceId"), 16, path + ".traceId"));
        b.spanId(HexId.parse(field(rec, "spanId"), 8, path + ".spanId"));
        b.eventName(string(rec, "eventName", path));
        decodeBody(field(rec, "body"), path + ".body", b);
    }

    private static void decodeBody(JsonNode body, String path, LogRecord.Builder b) {
        AnyValue v = AttributesJson.parseValue(body, path);
        b.templateId(0).params(List.of()).separators(List.of()).confidence(1.0f);
        if (v instanceof AnyValue.EmptyValue) {
            b.bodyKind(BodyKind.ABSENT).body(null).lossyFlag(false);
        } else if (v instanceof AnyValue.StringValue s) {
            // Not mined here (see class comment): the raw line is the source of truth, so the row is lossy.
            b.bodyKind(BodyKind.STRING).body(s.value().getBytes(StandardCharsets.UTF_8)).lossyFlag(true);
        } else {
            b.bodyKind(BodyKind.STRUCTURED).body(AttributesJson.encodeValue(v).getBytes(StandardCharsets.UTF_8))
                    .lossyFlag(false);
        }
    }

    // ---------------------------------------------------------------- field access

    /** Exactly one document: a second one, or garbage after it, is an error rather than silently dropped. */
    private static JsonNode parse(String json) {
        return JsonTrees.readOne(json);
    }

    /** A member by its lowerCamelCase name or its proto snake_case name; null when absent or JSON null. */
    static JsonNode field(JsonNode obj, String camel) {
        JsonNode v = obj.get(camel);
        if (v == null || v.isNull()) {
            v = obj.get(snake(camel));
        }
        return v == null || v.isNull() ? null : v;
    }

    private static String snake(String camel) {
        StringBuilder sb = new StringBuilder(camel.length() + 4);
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c)) {
                sb.append('_').append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private static JsonNode object(JsonNode node, String path) {
        if (!node.isObject()) {
            throw new JsonPathException(path, "expected an object, got " + node.getNodeType());
        }
        return node;
    }

    /** An array member; absent means empty. */
    private static JsonNode array(JsonNode obj, String name, String path) {
        JsonNode v = field(obj, name);
        if (v == null) {
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        }
        if (!v.isArray()) {
            throw new JsonPathException(join(path, name), "expected an array, got " + v.getNodeType());
        }
        return v;
    }

    /** A string member; absent or empty means null. */
    private static String string(JsonNode obj, String name, String path) {
        JsonNode v = field(obj, name);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw new JsonPathException(join(path, name), "expected a string, got " + v.getNodeType());
        }
        return v.textValue().isEmpty() ? null : v.textValue();
    }

    private static long u64(JsonNode obj, String name, String path) {
        JsonNode v = field(obj, name);
        return v == null ? 0 : JsonNumbers.u64AsInt64(v, join(path, name));
    }
}
