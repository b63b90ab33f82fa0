package dev.ourios.parquet;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Shreds a {@link LogRecord} straight into parquet-java's {@link RecordConsumer} (no Group objects: the Group API
 * is about 2x slower, java-limits.md §3). Field indexes follow {@link LogSchema}: the base columns in declared
 * order, then resource.service.name, then the extras.
 *
 * <p>The only record checks are those the schema itself needs: INT(8, unsigned) columns must fit in 0..255 and
 * each extra's value must have its column's Java type. STORAGE.md demands no body/params/separators shape rule, so
 * none is enforced here (a file the reference wrote must always compact).
 */
final class LogWriteSupport extends WriteSupport<LogRecord> {
    private static final int SERVICE_INDEX = Columns.BASE.size();

    private final LogSchema schema;
    private final Runnable beforeFooter;
    private final List<PrimitiveType> extras;
    /**
     * Per string column, the last value and its encoding. Sorted input repeats dictionary-decoded values (the same
     * String instance) row after row, so re-encoding them to UTF-8 on every row was pure garbage.
     */
    private final String[] lastString = new String[SERVICE_INDEX + 1];
    private final Binary[] lastBinary = new Binary[SERVICE_INDEX + 1];
    private RecordConsumer rc;

    LogWriteSupport(LogSchema schema, Runnable beforeFooter) {
        this.schema = schema;
        this.beforeFooter = beforeFooter;
        this.extras = new ArrayList<>(schema.extras().values());
    }

    @Override
    public WriteContext init(Configuration configuration) {
        return new WriteContext(schema.messageType(), Map.of());
    }

    @Override
    public WriteContext init(ParquetConfiguration configuration) {
        return new WriteContext(schema.messageType(), Map.of());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
        this.rc = recordConsumer;
    }

    /** Checks what the schema needs before anything reaches the consumer, so a bad record leaves no trace. */
    static void validate(LogRecord r, LogSchema schema) {
        checkU8(Columns.SEVERITY_NUMBER, r.severityNumber());
        checkU8(Columns.BODY_KIND, r.bodyKind());
        for (Param p : r.params()) {
            if (p == null) {
                throw new IllegalArgumentException("params contains a null element");
            }
        }
        for (byte[] s : r.separators()) {
            if (s == null) {
                throw new IllegalArgumentException("separators contains a null element");
            }
        }
        for (Map.Entry<String, Object> e : r.extras().entrySet()) {
            PrimitiveType t = schema.extras().get(e.getKey());
            if (t == null) {
                throw new IllegalArgumentException("extra column '" + e.getKey() + "' is not in the writer's schema");
            }
            if (e.getValue() != null && !ExtraValues.fits(t, e.getValue())) {
                throw new IllegalArgumentException("extra column '" + e.getKey() + "' of type " + t
                        + " cannot hold a " + e.getValue().getClass().getSimpleName());
            }
        }
    }

    private static void checkU8(String column, int v) {
        if (v < 0 || v > 255) {
            throw new IllegalArgumentException(column + " must be in 0..255 (INT(8, unsigned)), got " + v);
        }
    }

    @Override
    public void write(LogRecord r) {
        rc.startMessage();
        string(0, Columns.TENANT_ID, r.tenantId());
        int64(1, Columns.TEMPLATE_ID, r.templateId());
        int32(2, Columns.TEMPLATE_VERSION, r.templateVersion());
        int64(3, Columns.TIME, r.timeUnixNano());
        if (r.observedTimeUnixNano() != null) {
            int64(4, Columns.OBSERVED_TIME, r.observedTimeUnixNano());
        }
        if (r.effectiveTimeUnixNano() != null) {
            int64(5, Columns.EFFECTIVE_TIME, r.effectiveTimeUnixNano());
        }
        int32(6, Columns.SEVERITY_NUMBER, r.severityNumber());
        string(7, Columns.SEVERITY_TEXT, r.severityText());
        string(8, Columns.SCOPE_NAME, r.scopeName());
        string(9, Columns.SCOPE_VERSION, r.scopeVersion());
        string(10, Columns.ATTRIBUTES, r.attributes());
        int32(11, Columns.DROPPED_ATTRIBUTES_COUNT, r.droppedAttributesCount());
        string(12, Columns.RESOURCE_ATTRIBUTES, r.resourceAttributes());
        bytes(13, Columns.TRACE_ID, r.traceId());
        bytes(14, Columns.SPAN_ID, r.spanId());
        int32(15, Columns.FLAGS, r.flags());
        string(16, Columns.EVENT_NAME, r.eventName());
        int32(17, Columns.BODY_KIND, r.bodyKind());
        bytes(18, Columns.BODY, r.body());
        params(r.params());
        separators(r.separators());
        rc.startField(Columns.CONFIDENCE, 21);
        rc.addFloat(r.confidence());
        rc.endField(Columns.CONFIDENCE, 21);
        rc.startField(Columns.LOSSY_FLAG, 22);
        rc.addBoolean(r.lossyFlag());
        rc.endField(Columns.LOSSY_FLAG, 22);
        string(23, Columns.SCOPE_ATTRIBUTES, r.scopeAttributes());
        string(24, Columns.RESOURCE_SCHEMA_URL, r.resourceSchemaUrl());
        string(25, Columns.SCOPE_SCHEMA_URL, r.scopeSchemaUrl());
        string(SERVICE_INDEX, Columns.SERVICE_NAME, r.serviceName());
        for (int i = 0; i < extras.size(); i++) {
            PrimitiveType t = extras.get(i);
            Object v = r.extras().get(t.getName());
            if (v != null) {
                int index = SERVICE_INDEX + 1 + i;
                rc.startField(t.getName(), index);
                extra(t, v);
                rc.endField(t.getName(), index);
            }
        }
        rc.endMessage();
    }

    private void extra(PrimitiveType t, Object v) {
        switch (t.getPrimitiveTypeName()) {
            case BINARY, FIXED_LEN_BYTE_ARRAY -> rc.addBinary(v instanceof String s
                    ? Binary.fromString(s) : Binary.fromConstantByteArray((byte[]) v));
            case INT64 -> rc.addLong((Long) v);
            case INT32 -> rc.addInteger((Integer) v);
            case DOUBLE -> rc.addDouble((Double) v);
            case FLOAT -> rc.addFloat((Float) v);
            case BOOLEAN -> rc.addBoolean((Boolean) v);
            default -> throw new IllegalStateException("unsupported extra type " + t);
        }
    }

    private void params(List<Param> params) {
        rc.startField(Columns.PARAMS, 19);
        rc.startGroup();
        if (!params.isEmpty()) {
            rc.startField("list", 0);
            for (Param p : params) {
                rc.startGroup();
                rc.startField("element", 0);
                rc.startGroup();
                rc.startField("type_tag", 0);
                rc.addInteger(p.typeTag());
                rc.endField("type_tag", 0);
                if (p.value() != null) {
                    rc.startField("value", 1);
                    rc.addBinary(Binary.fromConstantByteArray(p.value()));
                    rc.endField("value", 1);
                }
                rc.endGroup();
                rc.endField("element", 0);
                rc.endGroup();
            }
            rc.endField("list", 0);
        }
        rc.endGroup();
        rc.endField(Columns.PARAMS, 19);
    }

    private void separators(List<byte[]> separators) {
        rc.startField(Columns.SEPARATORS, 20);
        rc.startGroup();
        if (!separators.isEmpty()) {
            rc.startField("list", 0);
            for (byte[] s : separators) {
                rc.startGroup();
                rc.startField("element", 0);
                rc.addBinary(Binary.fromConstantByteArray(s));
                rc.endField("element", 0);
                rc.endGroup();
            }
            rc.endField("list", 0);
        }
        rc.endGroup();
        rc.endField(Columns.SEPARATORS, 20);
    }

    private void string(int index, String name, String v) {
        if (v != null) {
            Binary b;
            if (lastString[index] == v) {
                b = lastBinary[index];
            } else {
                b = Binary.fromConstantByteArray(v.getBytes(StandardCharsets.UTF_8));
                lastString[index] = v;
                lastBinary[index] = b;
            }
            rc.startField(name, index);
            rc.addBinary(b);
            rc.endField(name, index);
        }
    }

    private void bytes(int index, String name, byte[] v) {
        if (v != null) {
            rc.startField(name, index);
            rc.addBinary(Binary.fromConstantByteArray(v));
            rc.endField(name, index);
        }
    }

    private void int64(int index, String name, long v) {
        rc.startField(name, index);
        rc.addLong(v);
        rc.endField(name, index);
    }

    private void int32(int index, String name, int v) {
        rc.startField(name, index);
        rc.addInteger(v);
        rc.endField(name, index);
    }

    @Override
    public FinalizedWriteContext finalizeWrite() {
        // parquet-java calls this after flushing the last row group and before writing indexes, bloom filters
        // and the footer: the point from which the output holds bytes back for the footer rewrite.
        beforeFooter.run();
        return new FinalizedWriteContext(Map.of());
    }

    /** The Java types extras carry, per Parquet type (shared with the reader). */
    static final class ExtraValues {
        private ExtraValues() {
        }

        static boolean fits(PrimitiveType t, Object v) {
            return switch (t.getPrimitiveTypeName()) {
                case BINARY -> v instanceof byte[] || (v instanceof String && isString(t));
                case FIXED_LEN_BYTE_ARRAY -> v instanceof byte[] b && b.length == t.getTypeLength();
                case INT64 -> v instanceof Long;
                case INT32 -> v instanceof Integer;
                case DOUBLE -> v instanceof Double;
                case FLOAT -> v instanceof Float;
                case BOOLEAN -> v instanceof Boolean;
                default -> false;
            };
        }

        static boolean isString(PrimitiveType t) {
            return t.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation;
        }
    }
}
