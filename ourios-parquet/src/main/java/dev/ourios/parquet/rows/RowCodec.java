package dev.ourios.parquet.rows;

import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import dev.ourios.parquet.LogSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A compact binary form of one log record, used by the compactor's sort: rows are encoded once when read, sorted
 * as bytes, spilled and merged as bytes, and shredded into the output straight from those bytes
 * ({@link dev.ourios.parquet.write.LogFileWriter#write(byte[], int, int, StringTable)}), so no object graph is
 * rebuilt per row.
 *
 * <p>Layout (little-endian): a sort-key prefix {@code service, effective time, origin}, then every column in
 * {@link LogSchema} order (service excluded, it is in the prefix), then the extras sorted by name. Numbers are
 * fixed width; an optional number is an i32 presence flag and the value. A string or byte-array field is an i32
 * {@code n}: {@code n >= 0} inline bytes follow, {@code -1} null, {@code n <= -2} a reference to entry
 * {@code -2 - n} of the batch's {@link StringTable} (only low-cardinality columns are offered for interning:
 * tenant, service, severity text, scope, resource attributes, event name, schema URLs, extra names). A row with
 * no references is self-contained ({@link #inline}); spill runs hold only such rows.
 *
 * <p>The origin is the row's place in the partition, {@link #origin(int, long) (input ordinal, row ordinal)}: the
 * contract's tie-break for rows with equal service and time (STORAGE.md §5), carried with the row so that the sort
 * does not depend on the order rows reach it. It is not a column and is never written to a Parquet file.
 */
public final class RowCodec {
    /** A null string/bytes field's length marker (internal to ourios-parquet: public only for {@code read}). */
    public static final int NULL = -1;
    /** Extra value tags. */
    public static final int X_NULL = 0;
    public static final int X_STRING = 1;
    public static final int X_BYTES = 2;
    public static final int X_LONG = 3;
    public static final int X_INT = 4;
    public static final int X_DOUBLE = 5;
    public static final int X_FLOAT = 6;
    public static final int X_BOOLEAN = 7;

    /** Bytes of the sort-key prefix after the service field: effective time and origin. */
    static final int KEY_TAIL_BYTES = 16;
    /** Row ordinals take the low bits of an origin; input ordinals the rest (a plan has far fewer inputs). */
    static final int ROW_BITS = 40;

    private static final java.lang.invoke.VarHandle INTS = java.lang.invoke.MethodHandles
            .byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles
            .byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    private RowCodec() {
    }

    /** The origin of row {@code row} of input {@code input}: origins order as (input, row) do. */
    public static long origin(int input, long row) {
        if (input < 0 || row < 0 || row >= 1L << ROW_BITS || input >= 1 << (63 - ROW_BITS)) {
            throw new IllegalArgumentException("origin out of range: input " + input + ", row " + row);
        }
        return (long) input << ROW_BITS | row;
    }

    /**
     * Encodes {@code r} into {@code out} (appending) and returns the row's length once inlined: its encoded length
     * plus the bytes of every referenced string, which is what it weighs in a spill run. {@code origin} is the
     * row's {@link #origin(int, long) place in the partition}.
     */
    public static int encode(LogRecord r, long origin, StringTable strings, Output out) {
        int start = out.size;
        long refs = 0;
        refs += out.interned(r.serviceName(), strings);
        out.i64(r.effectiveTime());
        out.i64(origin);
        refs += out.interned(r.tenantId(), strings);
        out.i64(r.templateId());
        out.i32(r.templateVersion());
        out.i64(r.timeUnixNano());
        out.optional(r.observedTimeUnixNano());
        out.optional(r.effectiveTimeUnixNano());
        out.i32(r.severityNumber());
        refs += out.interned(r.severityText(), strings);
        refs += out.interned(r.scopeName(), strings);
        refs += out.interned(r.scopeVersion(), strings);
        out.string(r.attributes());
        out.i32(r.droppedAttributesCount());
        refs += out.interned(r.resourceAttributes(), strings);
        out.bytes(r.traceId());
        out.bytes(r.spanId());
        out.i32(r.flags());
        refs += out.interned(r.eventName(), strings);
        out.i32(r.bodyKind());
        out.bytes(r.body());
        out.i32(r.params().size());
        for (Param p : r.params()) {
            out.i32(p.typeTag());
            out.bytes(p.value());
        }
        out.i32(r.separators().size());
        for (byte[] s : r.separators()) {
            out.bytes(s);
        }
        out.i32(Float.floatToRawIntBits(r.confidence()));
        out.i32(r.lossyFlag() ? 1 : 0);
        refs += out.interned(r.scopeAttributes(), strings);
        refs += out.interned(r.resourceSchemaUrl(), strings);
        refs += out.interned(r.scopeSchemaUrl(), strings);
        out.i32(r.extras().size());
        for (Map.Entry<String, Object> x : r.extras().entrySet()) {
            refs += out.interned(x.getKey(), strings);
            Object v = x.getValue();
            if (v == null) {
                out.i32(X_NULL);
            } else if (v instanceof String s) {
                out.i32(X_STRING);
                out.string(s);
            } else if (v instanceof byte[] b) {
                out.i32(X_BYTES);
                out.bytes(b);
            } else if (v instanceof Long l) {
                out.i32(X_LONG);
                out.i64(l);
            } else if (v instanceof Integer i) {
                out.i32(X_INT);
                out.i32(i);
            } else if (v instanceof Double d) {
                out.i32(X_DOUBLE);
                out.i64(Double.doubleToRawLongBits(d));
            } else if (v instanceof Float f) {
                out.i32(X_FLOAT);
                out.i32(Float.floatToRawIntBits(f));
            } else if (v instanceof Boolean b) {
                out.i32(X_BOOLEAN);
                out.i32(b ? 1 : 0);
            } else {
                throw new IllegalArgumentException("extra column '" + x.getKey() + "' holds an unsupported "
                        + v.getClass().getSimpleName());
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, out.size - start + refs);
    }

    /** The origin of the row at {@code offset} (its prefix needs no table: a reference has no inline bytes). */
    public static long originOf(byte[] buf, int offset) {
        int n = (int) INTS.get(buf, offset); // the service field's length, or a negative null/reference marker
        return (long) LONGS.get(buf, offset + 4 + Math.max(0, n) + 8);
    }

    /**
     * The service of the row at {@code offset}, the first field of its sort-key prefix, or null; nothing else of the
     * row is decoded ({@code strings} may be null for a self-contained row).
     */
    public static String serviceOf(byte[] buf, int offset, StringTable strings) {
        int n = (int) INTS.get(buf, offset);
        if (n == NULL) {
            return null;
        }
        return n >= 0 ? new String(buf, offset + 4, n, StandardCharsets.UTF_8) : strings.string(-2 - n);
    }

    /** The effective time of the row at {@code offset}, from its sort-key prefix. */
    public static long effectiveTimeOf(byte[] buf, int offset) {
        int n = (int) INTS.get(buf, offset);
        return (long) LONGS.get(buf, offset + 4 + Math.max(0, n));
    }

    /** Decodes the row at {@code offset} ({@code strings} may be null for a self-contained row). */
    public static LogRecord decode(byte[] buf, int offset, StringTable strings) {
        RowCursor c = new RowCursor().reset(buf, offset, strings);
        String service = c.string();
        c.skipKeyTail();
        String tenant = c.string();
        long templateId = c.i64();
        int templateVersion = c.i32();
        long time = c.i64();
        Long observed = c.optional();
        Long effective = c.optional();
        int severity = c.i32();
        String severityText = c.string();
        String scopeName = c.string();
        String scopeVersion = c.string();
        String attributes = c.string();
        int dropped = c.i32();
        String resource = c.string();
        byte[] traceId = c.bytes();
        byte[] spanId = c.bytes();
        int flags = c.i32();
        String eventName = c.string();
        int bodyKind = c.i32();
        byte[] body = c.bytes();
        int np = c.i32();
        List<Param> params = new ArrayList<>(np);
        for (int i = 0; i < np; i++) {
            params.add(new Param(c.i32(), c.bytes()));
        }
        int ns = c.i32();
        List<byte[]> separators = new ArrayList<>(ns);
        for (int i = 0; i < ns; i++) {
            separators.add(c.bytes());
        }
        float confidence = Float.intBitsToFloat(c.i32());
        boolean lossy = c.i32() != 0;
        String scopeAttributes = c.string();
        String resourceSchemaUrl = c.string();
        String scopeSchemaUrl = c.string();
        int nx = c.i32();
        SortedMap<String, Object> extras = new TreeMap<>();
        for (int i = 0; i < nx; i++) {
            String name = c.string();
            int tag = c.i32();
            extras.put(name, switch (tag) {
                case X_NULL -> null;
                case X_STRING -> c.string();
                case X_BYTES -> c.bytes();
                case X_LONG -> c.i64();
                case X_INT -> c.i32();
                case X_DOUBLE -> Double.longBitsToDouble(c.i64());
                case X_FLOAT -> Float.intBitsToFloat(c.i32());
                case X_BOOLEAN -> c.i32() != 0;
                default -> throw new IllegalStateException("BUG: extra tag " + tag);
            });
        }
        return new LogRecord(tenant, templateId, templateVersion, time, observed, effective, severity, severityText,
                scopeName, scopeVersion, attributes, dropped, resource, traceId, spanId, flags, eventName, bodyKind,
                body, params, separators, confidence, lossy, scopeAttributes, resourceSchemaUrl, scopeSchemaUrl,
                service, extras);
    }

    /**
     * Copies the row at {@code offset} into {@code out} with every reference replaced by its bytes, so the copy
     * no longer needs {@code strings}. Returns the copy's length.
     */
    public static int inline(byte[] buf, int offset, StringTable strings, Output out) {
        return translate(buf, offset, strings, id -> -1, out);
    }

    /**
     * Where a row's references go when it is copied into another string table: the target table's id for entry
     * {@code sourceId} of the source table, or -1 to store that entry's bytes inline.
     */
    @FunctionalInterface
    public interface Retarget {
        int idOf(int sourceId);
    }

    /**
     * Copies the row at {@code offset}, whose references are to {@code source}, into {@code out} with references to
     * the table {@code target} maps them to (or inline). Returns what {@link #encode} returns for the copy: its
     * length plus the bytes of every value it references.
     */
    public static int translate(byte[] buf, int offset, StringTable source, Retarget target, Output out) {
        RowCursor c = new RowCursor().reset(buf, offset, source);
        int start = out.size;
        long refs = 0;
        refs += out.copyString(c, target); // service
        out.i64(c.i64()); // effective time
        out.i64(c.i64()); // origin
        refs += out.copyString(c, target); // tenant
        out.i64(c.i64());
        out.i32(c.i32());
        out.i64(c.i64());
        out.copyOptional(c);
        out.copyOptional(c);
        out.i32(c.i32());
        refs += out.copyString(c, target);
        refs += out.copyString(c, target);
        refs += out.copyString(c, target);
        refs += out.copyString(c, target); // attributes
        out.i32(c.i32());
        refs += out.copyString(c, target); // resource attributes
        refs += out.copyString(c, target);
        refs += out.copyString(c, target);
        out.i32(c.i32());
        refs += out.copyString(c, target); // event name
        out.i32(c.i32());
        refs += out.copyString(c, target); // body
        int np = c.i32();
        out.i32(np);
        for (int i = 0; i < np; i++) {
            out.i32(c.i32());
            refs += out.copyString(c, target);
        }
        int ns = c.i32();
        out.i32(ns);
        for (int i = 0; i < ns; i++) {
            refs += out.copyString(c, target);
        }
        out.i32(c.i32());
        out.i32(c.i32());
        refs += out.copyString(c, target);
        refs += out.copyString(c, target);
        refs += out.copyString(c, target);
        int nx = c.i32();
        out.i32(nx);
        for (int i = 0; i < nx; i++) {
            refs += out.copyString(c, target);
            int tag = c.i32();
            out.i32(tag);
            switch (tag) {
                case X_NULL -> {
                }
                case X_STRING, X_BYTES -> refs += out.copyString(c, target);
                case X_LONG, X_DOUBLE -> out.i64(c.i64());
                case X_INT, X_FLOAT, X_BOOLEAN -> out.i32(c.i32());
                default -> throw new IllegalStateException("BUG: extra tag " + tag);
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, out.size - start + refs);
    }

    /**
     * A growable little-endian byte writer, reused across rows.
     *
     * <p>Its field writers ({@code i32}, {@code i64}, {@code setI32}, {@code bytes}, {@code string},
     * {@code interned}) are internal to ourios-parquet: public only for the {@code read} package, which encodes
     * rows straight from column pages ({@code ColumnarRows.encodeNext}).
     */
    public static final class Output {
        private byte[] buf;
        private int size;

        public Output(int initialCapacity) {
            buf = new byte[Math.max(16, initialCapacity)];
        }

        public void reset() {
            size = 0;
        }

        /** Drops every byte after the first {@code newSize}: a row encoded and then left out (a deletion). */
        public void truncate(int newSize) {
            if (newSize < 0 || newSize > size) {
                throw new IllegalArgumentException("cannot truncate " + size + " bytes to " + newSize);
            }
            size = newSize;
        }

        public byte[] array() {
            return buf;
        }

        public int size() {
            return size;
        }

        private void ensure(int n) {
            if (size + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
            }
        }

        public void i32(int v) {
            ensure(4);
            buf[size] = (byte) v;
            buf[size + 1] = (byte) (v >>> 8);
            buf[size + 2] = (byte) (v >>> 16);
            buf[size + 3] = (byte) (v >>> 24);
            size += 4;
        }

        /** Overwrites the four bytes at {@code position} (a count written before its elements were known). */
        public void setI32(int position, int v) {
            if (position < 0 || position + 4 > size) {
                throw new IndexOutOfBoundsException("BUG: i32 at " + position + " of " + size + " bytes");
            }
            buf[position] = (byte) v;
            buf[position + 1] = (byte) (v >>> 8);
            buf[position + 2] = (byte) (v >>> 16);
            buf[position + 3] = (byte) (v >>> 24);
        }

        public void i64(long v) {
            i32((int) v);
            i32((int) (v >>> 32));
        }

        void optional(Long v) {
            if (v == null) {
                i32(0);
            } else {
                i32(1);
                i64(v);
            }
        }

        public void bytes(byte[] b) {
            if (b == null) {
                i32(NULL);
            } else {
                bytes(b, 0, b.length);
            }
        }

        public void bytes(byte[] b, int off, int len) {
            i32(len);
            ensure(len);
            System.arraycopy(b, off, buf, size, len);
            size += len;
        }

        public void string(String s) {
            bytes(s == null ? null : s.getBytes(StandardCharsets.UTF_8));
        }

        /** Writes a reference when the table takes {@code s}; returns the bytes a reference saves inline. */
        public int interned(String s, StringTable strings) {
            if (s == null) {
                i32(NULL);
                return 0;
            }
            int id = strings.intern(s);
            if (id < 0) {
                string(s);
                return 0;
            }
            i32(-2 - id);
            return strings.utf8(id).length;
        }

        /** Copies a string/bytes field, retargeting a reference; returns the bytes a reference stands for. */
        int copyString(RowCursor c, Retarget target) {
            if (!c.field()) {
                i32(NULL);
                return 0;
            }
            int id = c.ref() >= 0 ? target.idOf(c.ref()) : -1;
            if (id >= 0) {
                i32(-2 - id);
                return c.length();
            }
            bytes(c.array(), c.offset(), c.length());
            return 0;
        }

        void copyOptional(RowCursor c) {
            int present = c.i32();
            i32(present);
            if (present != 0) {
                i64(c.i64());
            }
        }
    }
}
