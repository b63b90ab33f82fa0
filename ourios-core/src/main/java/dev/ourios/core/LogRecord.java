package dev.ourios.core;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One log record with every column of the schema (STORAGE.md §2).
 *
 * <p>Unsigned Parquet integers are carried in the Java type of the same width (a u64 template id in a {@code long},
 * bit for bit). Nullable columns use boxed types or null references. {@code extras} carries columns this version
 * does not model (other promoted columns, columns added by newer writers) keyed by name, so that compaction keeps
 * every column any input has. Values there are {@code String}, {@code Long}, {@code Integer}, {@code Double},
 * {@code Float}, {@code Boolean} or {@code byte[]}.
 */
public record LogRecord(
        String tenantId,
        long templateId,
        int templateVersion,
        long timeUnixNano,
        Long observedTimeUnixNano,
        Long effectiveTimeUnixNano,
        int severityNumber,
        String severityText,
        String scopeName,
        String scopeVersion,
        String attributes,
        int droppedAttributesCount,
        String resourceAttributes,
        byte[] traceId,
        byte[] spanId,
        int flags,
        String eventName,
        int bodyKind,
        byte[] body,
        List<Param> params,
        List<byte[]> separators,
        float confidence,
        boolean lossyFlag,
        String scopeAttributes,
        String resourceSchemaUrl,
        String scopeSchemaUrl,
        String serviceName,
        SortedMap<String, Object> extras) {

    public LogRecord {
        Objects.requireNonNull(tenantId, "tenant_id");
        Objects.requireNonNull(attributes, "attributes");
        Objects.requireNonNull(resourceAttributes, "resource_attributes");
        params = params == null ? List.of() : params;
        separators = separators == null ? List.of() : separators;
        extras = extras == null ? new TreeMap<>() : extras;
        if (traceId != null && traceId.length != 16) {
            throw new IllegalArgumentException("trace_id must be 16 bytes, got " + traceId.length);
        }
        if (spanId != null && spanId.length != 8) {
            throw new IllegalArgumentException("span_id must be 8 bytes, got " + spanId.length);
        }
    }

    /** The effective time as STORAGE.md §1 defines it: time if non-zero, else observed if non-zero, else 0. */
    public static long effectiveTime(long timeUnixNano, Long observedTimeUnixNano) {
        if (timeUnixNano != 0) {
            return timeUnixNano;
        }
        return observedTimeUnixNano == null ? 0 : observedTimeUnixNano;
    }

    /** This row's effective time, always recomputed from its source columns. */
    public long effectiveTime() {
        return effectiveTime(timeUnixNano, observedTimeUnixNano);
    }

    /** The partition this row belongs to. */
    public PartitionKey partitionKey() {
        return PartitionKey.of(tenantId, effectiveTime());
    }

    /**
     * A quick estimate of the heap this record's variable-length values hold (bodies, attributes, params, with a
     * fixed allowance for the rest): for bounding hand-off queues between threads, where it must be cheap. The sort
     * budget uses the compactor's careful RecordFootprint instead.
     */
    public long roughHeapBytes() {
        long b = 256;
        b += body == null ? 0 : body.length;
        b += attributes == null ? 0 : 2L * attributes.length();
        for (Param p : params) {
            b += 32 + (p.value() == null ? 0 : p.value().length);
        }
        b += 24L * separators.size();
        return b;
    }

    /**
     * This row with the derived columns recomputed from the source columns (the re-projection point): itself when it
     * already carries exactly those values (records are immutable; files we wrote always do), else a copy.
     */
    public LogRecord reprojected(String derivedServiceName) {
        long effective = effectiveTime();
        if (effectiveTimeUnixNano != null && effectiveTimeUnixNano == effective
                && Objects.equals(serviceName, derivedServiceName)) {
            return this;
        }
        return new LogRecord(tenantId, templateId, templateVersion, timeUnixNano, observedTimeUnixNano,
                effective, severityNumber, severityText, scopeName, scopeVersion, attributes,
                droppedAttributesCount, resourceAttributes, traceId, spanId, flags, eventName, bodyKind, body, params,
                separators, confidence, lossyFlag, scopeAttributes, resourceSchemaUrl, scopeSchemaUrl,
                derivedServiceName, extras);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof LogRecord r)) {
            return false;
        }
        return tenantId.equals(r.tenantId) && templateId == r.templateId && templateVersion == r.templateVersion
                && timeUnixNano == r.timeUnixNano && Objects.equals(observedTimeUnixNano, r.observedTimeUnixNano)
                && Objects.equals(effectiveTimeUnixNano, r.effectiveTimeUnixNano)
                && severityNumber == r.severityNumber && Objects.equals(severityText, r.severityText)
                && Objects.equals(scopeName, r.scopeName) && Objects.equals(scopeVersion, r.scopeVersion)
                && attributes.equals(r.attributes) && droppedAttributesCount == r.droppedAttributesCount
                && resourceAttributes.equals(r.resourceAttributes) && Arrays.equals(traceId, r.traceId)
                && Arrays.equals(spanId, r.spanId) && flags == r.flags && Objects.equals(eventName, r.eventName)
                && bodyKind == r.bodyKind && Arrays.equals(body, r.body) && params.equals(r.params)
                && separatorsEqual(separators, r.separators)
                && Float.floatToIntBits(confidence) == Float.floatToIntBits(r.confidence)
                && lossyFlag == r.lossyFlag && Objects.equals(scopeAttributes, r.scopeAttributes)
                && Objects.equals(resourceSchemaUrl, r.resourceSchemaUrl)
                && Objects.equals(scopeSchemaUrl, r.scopeSchemaUrl) && Objects.equals(serviceName, r.serviceName)
                && extrasEqual(extras, r.extras);
    }

    private static boolean separatorsEqual(List<byte[]> a, List<byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean extrasEqual(Map<String, Object> a, Map<String, Object> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (var e : a.entrySet()) {
            Object x = e.getValue();
            Object y = b.get(e.getKey());
            if (x instanceof byte[] bx ? !(y instanceof byte[] by && Arrays.equals(bx, by)) : !Objects.equals(x, y)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Objects.hash(tenantId, templateId, timeUnixNano, severityNumber, attributes, Arrays.hashCode(body),
                Arrays.hashCode(traceId));
    }

    /** Starts a builder with the REQUIRED columns' neutral values. */
    public static Builder builder(String tenantId) {
        return new Builder(tenantId);
    }

    /** Mutable builder, for the generator, the OTLP decoder and tests. */
    public static final class Builder {
        private String tenantId;
        private long templateId;
        private int templateVersion = 1;
        private long timeUnixNano;
        private Long observedTimeUnixNano;
        private int severityNumber;
        private String severityText;
        private String scopeName;
        private String scopeVersion;
        private String attributes = "[]";
        private int droppedAttributesCount;
        private String resourceAttributes = "[]";
        private byte[] traceId;
        private byte[] spanId;
        private int flags;
        private String eventName;
        private int bodyKind = BodyKind.ABSENT;
        private byte[] body;
        private List<Param> params = List.of();
        private List<byte[]> separators = List.of();
        private float confidence = 1.0f;
        private boolean lossyFlag;
        private String scopeAttributes = "[]";
        private String resourceSchemaUrl;
        private String scopeSchemaUrl;
        private String serviceName;
        private SortedMap<String, Object> extras = new TreeMap<>();

        private Builder(String tenantId) {
            this.tenantId = tenantId;
        }

        public Builder tenantId(String v) { tenantId = v; return this; }
        public Builder templateId(long v) { templateId = v; return this; }
        public Builder templateVersion(int v) { templateVersion = v; return this; }
        public Builder timeUnixNano(long v) { timeUnixNano = v; return this; }
        public Builder observedTimeUnixNano(Long v) { observedTimeUnixNano = v; return this; }
        public Builder severityNumber(int v) { severityNumber = v; return this; }
        public Builder severityText(String v) { severityText = v; return this; }
        public Builder scopeName(String v) { scopeName = v; return this; }
        public Builder scopeVersion(String v) { scopeVersion = v; return this; }
        public Builder attributes(String v) { attributes = v; return this; }
        public Builder droppedAttributesCount(int v) { droppedAttributesCount = v; return this; }
        public Builder resourceAttributes(String v) { resourceAttributes = v; return this; }
        public Builder traceId(byte[] v) { traceId = v; return this; }
        public Builder spanId(byte[] v) { spanId = v; return this; }
        public Builder flags(int v) { flags = v; return this; }
        public Builder eventName(String v) { eventName = v; return this; }
        public Builder bodyKind(int v) { bodyKind = v; return this; }
        public Builder body(byte[] v) { body = v; return this; }
        public Builder params(List<Param> v) { params = v; return this; }
        public Builder separators(List<byte[]> v) { separators = v; return this; }
        public Builder confidence(float v) { confidence = v; return this; }
        public Builder lossyFlag(boolean v) { lossyFlag = v; return this; }
        public Builder scopeAttributes(String v) { scopeAttributes = v; return this; }
        public Builder resourceSchemaUrl(String v) { resourceSchemaUrl = v; return this; }
        public Builder scopeSchemaUrl(String v) { scopeSchemaUrl = v; return this; }
        public Builder serviceName(String v) { serviceName = v; return this; }
        public Builder extra(String column, Object value) { extras.put(column, value); return this; }

        /** Builds the record, deriving {@code effective_time_unix_nano} from the source columns. */
        public LogRecord build() {
            return new LogRecord(tenantId, templateId, templateVersion, timeUnixNano, observedTimeUnixNano,
                    effectiveTime(timeUnixNano, observedTimeUnixNano), severityNumber, severityText, scopeName,
                    scopeVersion, attributes, droppedAttributesCount, resourceAttributes, traceId, spanId, flags,
                    eventName, bodyKind, body, params, separators, confidence, lossyFlag, scopeAttributes,
                    resourceSchemaUrl, scopeSchemaUrl, serviceName, new TreeMap<>(extras));
        }
    }
}
