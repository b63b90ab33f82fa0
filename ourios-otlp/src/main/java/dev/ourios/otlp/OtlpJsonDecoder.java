package dev.ourios.otlp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes OTLP/JSON log documents ({@code {"resourceLogs":[…]}}, as the Collector's file exporter writes one per
 * line, or pretty-printed) into {@link LogRecord}s of one tenant.
 *
 * <p>The columns are decided by {@link OtlpRows}, as for every OTLP input. What is particular to OTLP/JSON:
 * <ul>
 *   <li>Timestamps are unsigned on the wire but signed in Parquet: values above {@link Long#MAX_VALUE} are an error
 *       naming the field, never saturated. A missing timestamp is 0 (proto3 has no presence), which the
 *       effective-time rule reads as "unknown".</li>
 *   <li>Trace and span ids are hex ({@link HexId}); {@code severityNumber} is a number or its enum name
 *       ({@link Severity}).</li>
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
    /** Parsers over the caller's streams; their values are read by {@link JsonTrees}' rules. */
    static final JsonFactory JSON = new JsonFactory();

    private OtlpJsonDecoder() {
    }

    /** Decodes one document given as text. */
    public static List<LogRecord> decode(String tenantId, String json) {
        return decode(tenantId, parse(json));
    }

    /** Decodes one document read whole from a stream (UTF-8); the caller owns and closes the stream. */
    public static List<LogRecord> decode(String tenantId, InputStream json) {
        JsonNode root;
        try (JsonParser p = JSON.createParser(json)) {
            root = JsonTrees.readOne(p);
        } catch (JsonProcessingException e) {
            throw JsonTrees.malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return decode(tenantId, root);
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
        OtlpRows.Resource context = OtlpRows.resource(tenantId, resourceAttrs, string(rl, "schemaUrl", rPath));
        JsonNode scopeLogs = array(rl, "scopeLogs", rPath);
        for (int j = 0; j < scopeLogs.size(); j++) {
            decodeScope(context, object(scopeLogs.get(j), rPath + ".scopeLogs[" + j + "]"),
                    rPath + ".scopeLogs[" + j + "]", out);
        }
    }

    private static void decodeScope(OtlpRows.Resource r, JsonNode sl, String sPath, List<LogRecord> out) {
        JsonNode scope = field(sl, "scope");
        String scopePath = sPath + ".scope";
        String scopeName = null;
        String scopeVersion = null;
        List<KeyValue> scopeAttributes = List.of();
        if (scope != null) {
            object(scope, scopePath);
            scopeName = string(scope, "name", scopePath);
            scopeVersion = string(scope, "version", scopePath);
            scopeAttributes = AttributesJson.parse(field(scope, "attributes"), scopePath + ".attributes");
        }
        OtlpRows.Scope context = OtlpRows.scope(scopeName, scopeVersion, scopeAttributes,
                string(sl, "schemaUrl", sPath));
        JsonNode records = array(sl, "logRecords", sPath);
        for (int k = 0; k < records.size(); k++) {
            String path = sPath + ".logRecords[" + k + "]";
            out.add(OtlpRows.row(r, context, fields(object(records.get(k), path), path)));
        }
    }

    private static OtlpRows.Fields fields(JsonNode rec, String path) {
        long time = u64(rec, "timeUnixNano", path);
        long observed = u64(rec, "observedTimeUnixNano", path);
        JsonNode sev = field(rec, "severityNumber");
        int severity = sev == null ? 0 : Severity.parse(sev, path + ".severityNumber");
        String severityText = string(rec, "severityText", path);
        List<KeyValue> attributes = AttributesJson.parse(field(rec, "attributes"), path + ".attributes");
        JsonNode dropped = field(rec, "droppedAttributesCount");
        int droppedCount = dropped == null ? 0 : JsonNumbers.u32(dropped, path + ".droppedAttributesCount");
        JsonNode flagsNode = field(rec, "flags");
        int flags = flagsNode == null ? 0 : JsonNumbers.u32(flagsNode, path + ".flags");
        byte[] traceId = HexId.parse(field(rec, "traceId"), OtlpRows.TRACE_ID_BYTES, path + ".traceId");
        byte[] spanId = HexId.parse(field(rec, "spanId"), OtlpRows.SPAN_ID_BYTES, path + ".spanId");
        String eventName = string(rec, "eventName", path);
        AnyValue body = AttributesJson.parseValue(field(rec, "body"), path + ".body");
        return new OtlpRows.Fields(time, observed, severity, severityText, attributes, droppedCount, flags, traceId,
                spanId, eventName, body);
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
