package dev.ourios.parquet.write;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import dev.ourios.parquet.LogSchema;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.rows.RowCursor;
import dev.ourios.parquet.rows.StringTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Shreds a {@link LogRecord}, or a {@link RowCodec} row, straight into parquet-java's column writers through a
 * {@link ColumnShredder} (no Group objects and no record consumer). Field indexes follow
 * {@link LogSchema}: the base columns in declared order, then resource.service.name, then the extras. Work on
 * fields the shredder's slice does not own (statistics, value wrapping, list walks) is skipped; {@link RowGroupWriter}
 * runs one instance per slice.
 *
 * <p>The only record checks are those the schema itself needs: the 8-bit OpenTelemetry values (severity number,
 * body kind, unsigned 8-bit values in INT(16, signed) columns) must fit in 0..255, and
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
     * String instance) row after row, so re-encoding them to UTF-8 on every row would be pure garbage.
     */
    private final String[] lastString = new String[SERVICE_INDEX + 1];
    private final Binary[] lastBinary = new Binary[SERVICE_INDEX + 1];
    /** The open row group's columns of this instance's slice. */
    private ColumnShredder out;
    /** Chunk statistics of attributes (0), resource_attributes (1) and body (2); see {@link ChunkStats}. */
    private final ChunkStats chunkStats = new ChunkStats(3);
    private List<ChunkStats.Group> finishedStats;

    LogWriteSupport(LogSchema schema) {
        this.extras = new ArrayList<>(schema.extras().values());
    }

    /** Starts a row group: its columns (a new shredder per group). */
    void prepareForWrite(ColumnShredder shredder) {
        this.out = shredder;
        chunkStats.startGroup();
    }

    private boolean owns(int index) {
        return out.owns(index);
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
            if (e.getValue() != null && !LogSchema.extraFits(t, e.getValue())) {
                throw new IllegalArgumentException("extra column '" + e.getKey() + "' of type " + t
                        + " cannot hold a " + e.getValue().getClass().getSimpleName());
            }
        }
    }

    private static void checkU8(String column, int v) {
        if (v < 0 || v > 255) {
            throw new IllegalArgumentException(column + " must be in 0..255, got " + v);
        }
    }

    private final RowCursor cursor = new RowCursor();
    /** Per column, the table entry last written and its Binary: referenced values repeat row after row. */
    private static final int REF_SLOTS = 512;
    /**
     * One constant Binary per string-table entry, by the identity of the entry's array (direct-mapped): the same
     * instance for every repeat, which {@link ChunkWriter} and {@link MemoisedBinaryDictionaryWriter} recognise
     * without hashing.
     */
    private final byte[][] refArrays = new byte[REF_SLOTS][];
    private final Binary[] refBinaries = new Binary[REF_SLOTS];

    /**
     * Shreds a {@link RowCodec} row without building a record: the same fields, in the same order, as
     * {@link #writeRecord}. Binary values go to the shredder as byte ranges, with the entry's constant Binary for
     * referenced ones (one per table entry, the identity our column writers and bloom filters memoise on); the
     * shredder wraps them as Binaries only for parquet-java's column writers (ingest files), which copy what they
     * keep. The INT(8) range checks
     * run before anything reaches the consumer; a bad extra fails mid-row, which fails the whole file (the writer
     * refuses to commit after any write error).
     */
    void writeEncoded(byte[] buf, int offset, StringTable strings) {
        RowCursor c = cursor.reset(buf, offset, strings);
        boolean hasService = c.field();
        byte[] serviceArray = hasService ? c.array() : null;
        int serviceOffset = hasService ? c.offset() : 0;
        int serviceLength = hasService ? c.length() : 0;
        Binary serviceConstant = hasService ? constant(c) : null;
        c.skipKeyTail(); // the sort key's effective time (the column itself follows) and origin
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
        stringField(c, 0);
        out.int64(1, c.i64());
        out.int32(2, c.i32());
        out.int64(3, c.i64());
        if (c.present()) {
            out.int64(4, c.i64());
        }
        if (c.present()) {
            out.int64(5, c.i64());
        }
        out.int32(6, c.i32());
        stringField(c, 7);
        stringField(c, 8);
        stringField(c, 9);
        stringField(c, 10);
        out.int32(11, c.i32());
        stringField(c, 12);
        stringField(c, 13);
        stringField(c, 14);
        out.int32(15, c.i32());
        stringField(c, 16);
        int bodyKind = c.i32();
        checkU8(Columns.BODY_KIND, bodyKind);
        out.int32(17, bodyKind);
        stringField(c, 18);
        encodedParams(c);
        encodedSeparators(c);
        out.float32(21, Float.intBitsToFloat(c.i32()));
        out.bool(22, c.i32() != 0);
        stringField(c, 23);
        stringField(c, 24);
        stringField(c, 25);
        if (hasService) {
            out.binary(SERVICE_INDEX, serviceArray, serviceOffset, serviceLength, serviceConstant);
        }
        encodedExtras(c);
        out.endRow();
    }

    /** The constant Binary of the string-table entry the cursor's field refers to, or null for an inline value. */
    private Binary constant(RowCursor c) {
        if (c.ref() < 0) {
            return null;
        }
        byte[] a = c.array();
        int slot = System.identityHashCode(a) & (REF_SLOTS - 1);
        if (refArrays[slot] != a) {
            refArrays[slot] = a;
            refBinaries[slot] = Binary.fromConstantByteArray(a);
        }
        return refBinaries[slot];
    }

    private void stringField(RowCursor c, int index) {
        if (!owns(index)) {
            c.field();
            return;
        }
        int slot = statsSlot(index);
        if (c.field()) {
            if (slot >= 0) {
                chunkStats.value(slot, c.array(), c.offset(), c.length());
            }
            out.binary(index, c.array(), c.offset(), c.length(), constant(c));
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
        out.params(n);
        for (int i = 0; i < n; i++) {
            int typeTag = c.i32();
            if (c.field()) {
                out.param(i, typeTag, c.array(), c.offset(), c.length());
            } else {
                out.param(i, typeTag, null, 0, 0);
            }
        }
    }

    private void encodedSeparators(RowCursor c) {
        int n = c.i32();
        if (!owns(20)) {
            for (int i = 0; i < n; i++) {
                c.field();
            }
            return;
        }
        out.separators(n);
        for (int i = 0; i < n; i++) {
            if (!c.field()) {
                throw new IllegalArgumentException("separators contains a null element");
            }
            out.separator(i, c.array(), c.offset(), c.length());
        }
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
            encodedExtra(c, t, tag, index);
        }
    }

    private void encodedExtra(RowCursor c, PrimitiveType t, int tag, int index) {
        PrimitiveType.PrimitiveTypeName type = t.getPrimitiveTypeName();
        boolean fits;
        switch (tag) {
            case RowCodec.X_STRING, RowCodec.X_BYTES -> {
                c.field();
                fits = type == PrimitiveType.PrimitiveTypeName.BINARY
                        ? tag == RowCodec.X_BYTES || LogSchema.isStringColumn(t)
                        : type == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY && tag == RowCodec.X_BYTES
                        && c.length() == t.getTypeLength();
                if (fits) {
                    out.binary(index, c.array(), c.offset(), c.length(), null);
                }
            }
            case RowCodec.X_LONG -> {
                long v = c.i64();
                fits = type == PrimitiveType.PrimitiveTypeName.INT64;
                if (fits) {
                    out.int64(index, v);
                }
            }
            case RowCodec.X_INT -> {
                int v = c.i32();
                fits = type == PrimitiveType.PrimitiveTypeName.INT32;
                if (fits) {
                    out.int32(index, v);
                }
            }
            case RowCodec.X_DOUBLE -> {
                long v = c.i64();
                fits = type == PrimitiveType.PrimitiveTypeName.DOUBLE;
                if (fits) {
                    out.float64(index, Double.longBitsToDouble(v));
                }
            }
            case RowCodec.X_FLOAT -> {
                int v = c.i32();
                fits = type == PrimitiveType.PrimitiveTypeName.FLOAT;
                if (fits) {
                    out.float32(index, Float.intBitsToFloat(v));
                }
            }
            case RowCodec.X_BOOLEAN -> {
                int v = c.i32();
                fits = type == PrimitiveType.PrimitiveTypeName.BOOLEAN;
                if (fits) {
                    out.bool(index, v != 0);
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
        string(0, r.tenantId());
        out.int64(1, r.templateId());
        out.int32(2, r.templateVersion());
        out.int64(3, r.timeUnixNano());
        if (r.observedTimeUnixNano() != null) {
            out.int64(4, r.observedTimeUnixNano());
        }
        if (r.effectiveTimeUnixNano() != null) {
            out.int64(5, r.effectiveTimeUnixNano());
        }
        out.int32(6, r.severityNumber());
        string(7, r.severityText());
        string(8, r.scopeName());
        string(9, r.scopeVersion());
        string(10, r.attributes());
        out.int32(11, r.droppedAttributesCount());
        string(12, r.resourceAttributes());
        bytes(13, r.traceId());
        bytes(14, r.spanId());
        out.int32(15, r.flags());
        string(16, r.eventName());
        out.int32(17, r.bodyKind());
        bytes(18, r.body());
        params(r.params());
        separators(r.separators());
        out.float32(21, r.confidence());
        out.bool(22, r.lossyFlag());
        string(23, r.scopeAttributes());
        string(24, r.resourceSchemaUrl());
        string(25, r.scopeSchemaUrl());
        string(SERVICE_INDEX, r.serviceName());
        for (int i = 0; i < extras.size(); i++) {
            PrimitiveType t = extras.get(i);
            Object v = r.extras().get(t.getName());
            if (v != null) {
                extra(t, v, SERVICE_INDEX + 1 + i);
            }
        }
        out.endRow();
    }

    private void extra(PrimitiveType t, Object v, int index) {
        switch (t.getPrimitiveTypeName()) {
            case BINARY, FIXED_LEN_BYTE_ARRAY -> out.binary(index, v instanceof String s
                    ? Binary.fromString(s) : Binary.fromConstantByteArray((byte[]) v));
            case INT64 -> out.int64(index, (Long) v);
            case INT32 -> out.int32(index, (Integer) v);
            case DOUBLE -> out.float64(index, (Double) v);
            case FLOAT -> out.float32(index, (Float) v);
            case BOOLEAN -> out.bool(index, (Boolean) v);
            default -> throw new IllegalStateException("unsupported extra type " + t);
        }
    }

    private void params(List<Param> params) {
        if (!owns(19)) {
            return;
        }
        out.params(params.size());
        for (int i = 0; i < params.size(); i++) {
            Param p = params.get(i);
            out.param(i, p.typeTag(), p.value() == null ? null : Binary.fromConstantByteArray(p.value()));
        }
    }

    private void separators(List<byte[]> separators) {
        if (!owns(20)) {
            return;
        }
        out.separators(separators.size());
        for (int i = 0; i < separators.size(); i++) {
            out.separator(i, Binary.fromConstantByteArray(separators.get(i)));
        }
    }

    private void string(int index, String v) {
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
            out.binary(index, b);
        }
    }

    private void bytes(int index, byte[] v) {
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
            out.binary(index, Binary.fromConstantByteArray(v));
        }
    }
}
