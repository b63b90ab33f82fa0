package dev.ourios.server.query;

import dev.ourios.core.Bytes;
import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A log record as one JSON object for {@code query --json} (and the HTTP endpoint): every stored column, so what
 * a user sees is everything the store keeps. {@link #FIELD_OF_COLUMN} maps each schema column to its JSON field;
 * a test holds it to the schema, so a new column cannot be left out silently.
 */
public final class RecordJson {
    /** Schema column → JSON field; extra columns (storage.md, section 2.2) go under {@code extras} by name. */
    public static final Map<String, String> FIELD_OF_COLUMN = fields();

    private RecordJson() {
    }

    private static Map<String, String> fields() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String c : Columns.BASE) {
            m.put(c, c);
        }
        m.put(Columns.EFFECTIVE_TIME, "time"); // shown as RFC 3339; derived from the two source times
        m.put(Columns.LOSSY_FLAG, "lossy");
        m.put(Columns.SERVICE_NAME, "service");
        return Collections.unmodifiableMap(m);
    }

    public static Map<String, Object> of(LogRecord r) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("time", time(r.effectiveTime()));
        o.put("time_unix_nano", Long.toUnsignedString(r.timeUnixNano()));
        o.put("observed_time_unix_nano", r.observedTimeUnixNano() == null ? null
                : Long.toUnsignedString(r.observedTimeUnixNano()));
        o.put("tenant_id", r.tenantId());
        o.put("service", r.serviceName());
        o.put("severity_number", r.severityNumber());
        o.put("severity_text", r.severityText());
        o.put("template_id", Long.toUnsignedString(r.templateId()));
        o.put("template_version", Integer.toUnsignedLong(r.templateVersion()));
        o.put("body_kind", r.bodyKind());
        o.put("body", body(r.body()));
        List<Map<String, Object>> params = new ArrayList<>();
        for (Param p : r.params()) {
            params.add(Map.of("type_tag", p.typeTag(), "value", p.value() == null ? "" : body(p.value())));
        }
        o.put("params", params);
        List<String> separators = new ArrayList<>();
        for (byte[] sep : r.separators()) {
            separators.add(body(sep));
        }
        o.put("separators", separators);
        o.put("confidence", r.confidence());
        o.put("lossy", r.lossyFlag());
        o.put("trace_id", Bytes.hex(r.traceId()));
        o.put("span_id", Bytes.hex(r.spanId()));
        o.put("flags", Integer.toUnsignedLong(r.flags()));
        o.put("event_name", r.eventName());
        o.put("scope_name", r.scopeName());
        o.put("scope_version", r.scopeVersion());
        o.put("scope_attributes", r.scopeAttributes());
        o.put("scope_schema_url", r.scopeSchemaUrl());
        o.put("attributes", r.attributes());
        o.put("dropped_attributes_count", Integer.toUnsignedLong(r.droppedAttributesCount()));
        o.put("resource_attributes", r.resourceAttributes());
        o.put("resource_schema_url", r.resourceSchemaUrl());
        if (!r.extras().isEmpty()) {
            o.put("extras", extras(r.extras()));
        }
        return o;
    }

    /** Extra columns by name: numbers and booleans as JSON, strings as text, byte arrays as {@link #body}. */
    private static Map<String, Object> extras(Map<String, Object> extras) {
        Map<String, Object> out = new TreeMap<>();
        for (var e : extras.entrySet()) {
            Object v = e.getValue();
            out.put(e.getKey(), v instanceof byte[] b ? body(b) : v);
        }
        return out;
    }

    /** UTF-8 text when the bytes are valid UTF-8, else {@code base64:<...>} (bodies may be any bytes). */
    public static String body(byte[] b) {
        if (b == null) {
            return null;
        }
        var dec = StandardCharsets.UTF_8.newDecoder();
        try {
            return dec.decode(java.nio.ByteBuffer.wrap(b)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return "base64:" + Base64.getEncoder().encodeToString(b);
        }
    }

    public static String time(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L))
                .toString();
    }
}
