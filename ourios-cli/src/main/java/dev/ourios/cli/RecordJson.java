package dev.ourios.cli;

import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** A log record as one JSON object for {@code query --json} (and the HTTP endpoint). */
public final class RecordJson {
    private RecordJson() {
    }

    public static Map<String, Object> of(LogRecord r) {
        var o = Output.obj();
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
        o.put("lossy", r.lossyFlag());
        o.put("trace_id", Bytes.hex(r.traceId()));
        o.put("span_id", Bytes.hex(r.spanId()));
        o.put("flags", Integer.toUnsignedLong(r.flags()));
        o.put("event_name", r.eventName());
        o.put("scope_name", r.scopeName());
        o.put("scope_version", r.scopeVersion());
        o.put("attributes", r.attributes());
        o.put("resource_attributes", r.resourceAttributes());
        return o;
    }

    /** UTF-8 text when the bytes are valid UTF-8, else {@code base64:<...>} (bodies may be any bytes). */
    static String body(byte[] b) {
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

    static String time(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L))
                .toString();
    }
}
