package dev.ourios.parquet;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Shreds a {@link LogRecord} straight into parquet-java's {@link RecordConsumer} (no Group objects: the Group API
 * is about 2x slower, java-limits.md §3). Field indexes follow {@link LogSchema}: the base columns in declared
 * order, then resource.service.name, then the extras. When the consumer is a {@link SliceConsumer}, work on fields
 * the slice does not own (statistics, value wrapping, list walks) is skipped; {@link RowGroupWriter} runs one
 * instance per slice.
 *
 * <p>The only record checks are those the schema itself needs: INT(8, unsigned) columns must fit in 0..255 and
 * each extra's value must have its column's Java type. STORAGE.md demands no body/params/separators shape rule, so
 * none is enforced here (a file the reference wrote must always compact).
 */
final class LogWriteSupport {
    private static final int SERVICE_INDEX = Columns.BASE.size();

    /** The columns {@link ChunkStats} tracks, by field index, in slot order: attributes, resource_attributes, body. */
    static final int[] STATS_COLUMNS = {10, 12, 18};

    private final List<PrimitiveType> extras;
    /**
     * Per string column, the last value and its encoding. Sorted input repeats dictionary-decoded values (the same
     * String instance) row after row, so re-encoding them to UTF-8 on every row was pure garbage.
     */
    private final String[] lastString = new String[SERVICE_INDEX + 1];
    private final Binary[] lastBinary = new Binary[SERVICE_INDEX + 1];
    private RecordConsumer rc;
    /** The slice {@link #rc} keeps, or null when it takes every field. */
    private SliceConsumer slice;
    /** Chunk statistics of attributes (0), resource_attributes (1) and body (2); see {@link ChunkStats}. */
    private final ChunkStats chunkStats = new ChunkStats(3);
    private List<ChunkStats.Group> finishedStats;

    LogWriteSupport(LogSchema schema) {
        this.extras = new ArrayList<>(schema.extras().values());
    }

    /** Starts a row group: its consumer (a new one per group). */
    void prepareForWrite(RecordConsumer recordConsumer) {
        this.rc = recordConsumer;
        this.slice = recordConsumer instanceof SliceConsumer s ? s : null;
        chunkStats.startGroup();
    }

    private boolean owns(int index) {
        return slice == null || slice.owns(index);
    }

    /** The chunk statistics of every written row group (call once, after the last group). */
    List<ChunkStats.Group> chunkStats() {
        if (finishedStats == null) {
            finishedStats = chunkStats.finish();
        }
        return finishedStats;
    }

    /** Index in {@link ChunkStats} of a column whose statistics it computes, or -1. */
    private static int statsSlot(int index) {
        for (int slot = 0; slot < STATS_COLUMNS.length; slot++) {
            if (STATS_COLUMNS[slot] == index) {
                return slot;
            }
        }
        return -1;
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

    private final RowCursor cursor = new RowCursor();
    /** Per column, the table entry last written and its Binary: referenced values repeat row after row. */
    private static final int REF_SLOTS = 512;
    /**
     * One constant Binary per string-table entry, by the identity of the entry's array (direct-mapped): the same
     * instance for every repeat, which is what {@link MemoisedBinaryDictionaryWriter} recognises without hashing.
     */
    private final byte[][] refArrays = new byte[REF_SLOTS][];
    private final Binary[] refBinaries = new Binary[REF_SLOTS];

    /**
     * Shreds a {@link RowCodec} row without building a record: the same fields, in the same order, as
     * {@link #writeRecord}. Inline values reach parquet-java as reused-array Binaries (it copies what it keeps:
     * dictionary entries, min/max); referenced ones as one constant Binary per table entry. The INT(8) range checks
     * run before anything reaches the consumer; a bad extra fails mid-row, which fails the whole file (the writer
     * refuses to commit after any write error).
     */
    void writeEncoded(byte[] buf, int offset, RowStrings strings) {
        RowCursor c = cursor.reset(buf, offset, strings);
        boolean hasService = c.field();
        Binary service = hasService ? binary(c, SERVICE_INDEX) : null;
        c.i64(); // the sort key's effective time; the column itself follows
        int start = c.position();
        c.field(); // tenant
        c.i64();
        c.i32();
        c.i64();
        if (c.present()) {
            c.i64();
        }
        if (c.present()) {
            c.i64();
        }
        checkU8(Columns.SEVERITY_NUMBER, c.i32());
        c.reset(buf, start, strings);
        chunkStats.row();
        rc.startMessage();
        stringField(c, 0, Columns.TENANT_ID);
        int64(1, Columns.TEMPLATE_ID, c.i64());
        int32(2, Columns.TEMPLATE_VERSION, c.i32());
        int64(3, Columns.TIME, c.i64());
        if (c.present()) {
            int64(4, Columns.OBSERVED_TIME, c.i64());
        }
        if (c.present()) {
            int64(5, Columns.EFFECTIVE_TIME, c.i64());
        }
        int32(6, Columns.SEVERITY_NUMBER, c.i32());
        stringField(c, 7, Columns.SEVERITY_TEXT);
        stringField(c, 8, Columns.SCOPE_NAME);
        stringField(c, 9, Columns.SCOPE_VERSION);
        stringField(c, 10, Columns.ATTRIBUTES);
        int32(11, Columns.DROPPED_ATTRIBUTES_COUNT, c.i32());
        stringField(c, 12, Columns.RESOURCE_ATTRIBUTES);
        stringField(c, 13, Columns.TRACE_ID);
        stringField(c, 14, Columns.SPAN_ID);
        int32(15, Columns.FLAGS, c.i32());
        stringField(c, 16, Columns.EVENT_NAME);
        int bodyKind = c.i32();
        checkU8(Columns.BODY_KIND, bodyKind);
        int32(17, Columns.BODY_KIND, bodyKind);
        stringField(c, 18, Columns.BODY);
        encodedParams(c);
        encodedSeparators(c);
        rc.startField(Columns.CONFIDENCE, 21);
        rc.addFloat(Float.intBitsToFloat(c.i32()));
        rc.endField(Columns.CONFIDENCE, 21);
        rc.startField(Columns.LOSSY_FLAG, 22);
        rc.addBoolean(c.i32() != 0);
        rc.endField(Columns.LOSSY_FLAG, 22);
        stringField(c, 23, Columns.SCOPE_ATTRIBUTES);
        stringField(c, 24, Columns.RESOURCE_SCHEMA_URL);
        stringField(c, 25, Columns.SCOPE_SCHEMA_URL);
        if (service != null) {
            rc.startField(Columns.SERVICE_NAME, SERVICE_INDEX);
            rc.addBinary(service);
            rc.endField(Columns.SERVICE_NAME, SERVICE_INDEX);
        }
        encodedExtras(c);
        rc.endMessage();
    }

    private Binary binary(RowCursor c, int index) {
        if (c.ref() < 0) {
            return Binary.fromReusedByteArray(c.array(), c.offset(), c.length());
        }
        byte[] a = c.array();
        int slot = System.identityHashCode(a) & (REF_SLOTS - 1);
        if (refArrays[slot] != a) {
            refArrays[slot] = a;
            refBinaries[slot] = Binary.fromConstantByteArray(a);
        }
        return refBinaries[slot];
    }

    private void stringField(RowCursor c, int index, String name) {
        if (!owns(index)) {
            c.field();
            return;
        }
        int slot = statsSlot(index);
        if (c.field()) {
            if (slot >= 0) {
                chunkStats.value(slot, c.array(), c.offset(), c.length());
            }
            Binary b = binary(c, index);
            rc.startField(name, index);
            rc.addBinary(b);
            rc.endField(name, index);
        } else if (slot >= 0) {
            chunkStats.nullValue(slot);
        }
    }

    private void encodedParams(RowCursor c) {
        int n = c.i32();
        if (!owns(19)) {
            for (int i = 0; i < n; i++) {
                c.i32();
                c.field();
            }
            return;
        }
        startList(Columns.PARAMS, 19, n);
        for (int i = 0; i < n; i++) {
            int typeTag = c.i32();
            param(typeTag, c.field() ? Binary.fromReusedByteArray(c.array(), c.offset(), c.length()) : null);
        }
        endList(Columns.PARAMS, 19, n);
    }

    private void encodedSeparators(RowCursor c) {
        int n = c.i32();
        if (!owns(20)) {
            for (int i = 0; i < n; i++) {
                c.field();
            }
            return;
        }
        startList(Columns.SEPARATORS, 20, n);
        for (int i = 0; i < n; i++) {
            if (!c.field()) {
                throw new IllegalArgumentException("separators contains a null element");
            }
            separator(Binary.fromReusedByteArray(c.array(), c.offset(), c.length()));
        }
        endList(Columns.SEPARATORS, 20, n);
    }

    /** A standard 3-level LIST field: the field, its group and, when it has elements, the repeated "list". */
    private void startList(String name, int index, int elements) {
        rc.startField(name, index);
        rc.startGroup();
        if (elements > 0) {
            rc.startField("list", 0);
        }
    }

    private void endList(String name, int index, int elements) {
        if (elements > 0) {
            rc.endField("list", 0);
        }
        rc.endGroup();
        rc.endField(name, index);
    }

    /** One params element: {@code struct<type_tag, value>}, value omitted when null. */
    private void param(int typeTag, Binary value) {
        rc.startGroup();
        rc.startField("element", 0);
        rc.startGroup();
        rc.startField("type_tag", 0);
        rc.addInteger(typeTag);
        rc.endField("type_tag", 0);
        if (value != null) {
            rc.startField("value", 1);
            rc.addBinary(value);
            rc.endField("value", 1);
        }
        rc.endGroup();
        rc.endField("element", 0);
        rc.endGroup();
    }

    private void separator(Binary s) {
        rc.startGroup();
        rc.startField("element", 0);
        rc.addBinary(s);
        rc.endField("element", 0);
        rc.endGroup();
    }

    /** Row extras and schema extras are both sorted by name: one merge walk. */
    private void encodedExtras(RowCursor c) {
        int n = c.i32();
        int next = 0;
        for (int i = 0; i < n; i++) {
            String name = c.string();
            int tag = c.i32();
            while (next < extras.size() && extras.get(next).getName().compareTo(name) < 0) {
                next++;
            }
            if (next == extras.size() || !extras.get(next).getName().equals(name)) {
                throw new IllegalArgumentException("extra column '" + name + "' is not in the writer's schema");
            }
            PrimitiveType t = extras.get(next);
            int index = SERVICE_INDEX + 1 + next;
            if (tag == RowCodec.X_NULL) {
                continue;
            }
            rc.startField(t.getName(), index);
            encodedExtra(c, t, tag);
            rc.endField(t.getName(), index);
        }
    }

    private void encodedExtra(RowCursor c, PrimitiveType t, int tag) {
        PrimitiveType.PrimitiveTypeName type = t.getPrimitiveTypeName();
        boolean fits;
        switch (tag) {
            case RowCodec.X_STRING, RowCodec.X_BYTES -> {
                c.field();
                fits = type == PrimitiveType.PrimitiveTypeName.BINARY
                        ? tag == RowCodec.X_BYTES || ExtraValues.isString(t)
                        : type == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY && tag == RowCodec.X_BYTES
                        && c.length() == t.getTypeLength();
                if (fits) {
                    rc.addBinary(Binary.fromReusedByteArray(c.array(), c.offset(), c.length()));
                }
            }
            case RowCodec.X_LONG -> {
                long v = c.i64();
                fits = type == PrimitiveType.PrimitiveTypeName.INT64;
                if (fits) {
                    rc.addLong(v);
                }
            }
            case RowCodec.X_INT -> {
                int v = c.i32();
                fits = type == PrimitiveType.PrimitiveTypeName.INT32;
                if (fits) {
                    rc.addInteger(v);
                }
            }
            case RowCodec.X_DOUBLE -> {
                long v = c.i64();
                fits = type == PrimitiveType.PrimitiveTypeName.DOUBLE;
                if (fits) {
                    rc.addDouble(Double.longBitsToDouble(v));
                }
            }
            case RowCodec.X_FLOAT -> {
                int v = c.i32();
                fits = type == PrimitiveType.PrimitiveTypeName.FLOAT;
                if (fits) {
                    rc.addFloat(Float.intBitsToFloat(v));
                }
            }
            case RowCodec.X_BOOLEAN -> {
                int v = c.i32();
                fits = type == PrimitiveType.PrimitiveTypeName.BOOLEAN;
                if (fits) {
                    rc.addBoolean(v != 0);
                }
            }
            default -> throw new IllegalStateException("BUG: extra tag " + tag);
        }
        if (!fits) {
            throw new IllegalArgumentException("extra column '" + t.getName() + "' of type " + t
                    + " cannot hold a value of tag " + tag);
        }
    }

    void writeRecord(LogRecord r) {
        chunkStats.row();
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
        if (!owns(19)) {
            return;
        }
        startList(Columns.PARAMS, 19, params.size());
        for (Param p : params) {
            param(p.typeTag(), p.value() == null ? null : Binary.fromConstantByteArray(p.value()));
        }
        endList(Columns.PARAMS, 19, params.size());
    }

    private void separators(List<byte[]> separators) {
        if (!owns(20)) {
            return;
        }
        startList(Columns.SEPARATORS, 20, separators.size());
        for (byte[] s : separators) {
            separator(Binary.fromConstantByteArray(s));
        }
        endList(Columns.SEPARATORS, 20, separators.size());
    }

    private void string(int index, String name, String v) {
        if (!owns(index)) {
            return;
        }
        int slot = statsSlot(index);
        if (v == null && slot >= 0) {
            chunkStats.nullValue(slot);
        }
        if (v != null) {
            Binary b;
            if (lastString[index] == v) {
                b = lastBinary[index];
            } else {
                b = Binary.fromConstantByteArray(v.getBytes(StandardCharsets.UTF_8));
                lastString[index] = v;
                lastBinary[index] = b;
            }
            if (slot >= 0) {
                byte[] bytes = b.getBytesUnsafe();
                chunkStats.value(slot, bytes, 0, bytes.length);
            }
            rc.startField(name, index);
            rc.addBinary(b);
            rc.endField(name, index);
        }
    }

    private void bytes(int index, String name, byte[] v) {
        if (!owns(index)) {
            return;
        }
        int slot = statsSlot(index);
        if (slot >= 0) {
            if (v == null) {
                chunkStats.nullValue(slot);
            } else {
                chunkStats.value(slot, v, 0, v.length);
            }
        }
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
