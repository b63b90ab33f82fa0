package dev.ourios.compaction.verify;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.rows.RowCursor;
import dev.ourios.parquet.rows.StringTable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * An order-independent checksum of a multiset of rows: the row count plus two 64-bit sums of independent per-row
 * hashes over every source column. Summing makes it independent of row order (the sort may permute rows) while a
 * dropped, duplicated or altered row changes it. Derived columns ({@code effective_time_unix_nano}, promoted
 * {@code resource.*} / {@code attr.*}) are left out, since re-projection may legitimately fill them.
 *
 * <p>Not thread-safe; one instance per stream of rows.
 */
public final class RowChecksum {
    private long rows;
    private long sumA;
    private long sumB;

    private final RowHasher h = new RowHasher();
    private final boolean hashing;

    public RowChecksum() {
        this(true);
    }

    /**
     * {@code hashing = false} counts rows only (see {@link dev.ourios.compaction.RowVerification#ROW_COUNTS}).
     *
     * <p>Internal to ourios-compaction: public only for the rewriter in {@code dev.ourios.compaction}, which reads
     * and writes with counting checksums when checksums are off.
     */
    public RowChecksum(boolean hashing) {
        this.hashing = hashing;
    }

    public void add(LogRecord r) {
        if (!hashing) {
            rows++;
            return;
        }
        h.reset();
        feed(h, r);
        rows++;
        sumA += h.finishA();
        sumB += h.finishB();
    }

    /**
     * Adds one {@link RowCodec} row: the same hash as {@link #add(LogRecord)} of the decoded record, computed from
     * the bytes the writer shreds (referenced values are hashed once per table entry).
     */
    public void add(byte[] buf, int offset, StringTable strings) {
        if (!hashing) {
            rows++;
            return;
        }
        h.reset();
        feed(h, cursor.reset(buf, offset, strings));
        rows++;
        sumA += h.finishA();
        sumB += h.finishB();
    }

    private final RowCursor cursor = new RowCursor();

    public long rows() {
        return rows;
    }

    /**
     * Adds another stream's rows (the sums commute: rows hashed on several threads add up to the same value).
     *
     * <p>Internal to ourios-compaction: public only for the input readers of the {@code sort} package, whose
     * checksums are added up.
     */
    public void addAll(RowChecksum other) {
        rows += other.rows;
        sumA += other.sumA;
        sumB += other.sumB;
    }

    /** {@code <rows>:<32 hex digits>}, the form recorded in the manifest's commit record. */
    public String value() {
        return rows + ":" + String.format("%016x%016x", sumA, sumB);
    }

    /**
     * The checksum of the rows of several streams from their {@link #value}s: counts and sums added, as
     * {@link #addAll} adds them (a shared rewrite's groups, recorded by different processes).
     *
     * @throws IllegalArgumentException when a value is not of the form {@code <rows>:<32 hex digits>}
     */
    public static String sum(Iterable<String> values) {
        RowChecksum total = new RowChecksum();
        for (String v : values) {
            int colon = v.indexOf(':');
            if (colon < 1 || v.length() != colon + 33 || !v.substring(colon + 1).matches("[0-9a-f]{32}")
                    || !v.substring(0, colon).matches("[0-9]{1,19}")) {
                throw new IllegalArgumentException("not a row checksum: " + v.substring(0, Math.min(v.length(), 64)));
            }
            total.rows += Long.parseLong(v.substring(0, colon));
            total.sumA += Long.parseUnsignedLong(v.substring(colon + 1, colon + 17), 16);
            total.sumB += Long.parseUnsignedLong(v.substring(colon + 17), 16);
        }
        return total.value();
    }

    public static String of(Iterable<LogRecord> records) {
        RowChecksum c = new RowChecksum();
        records.forEach(c::add);
        return c.value();
    }

    private static void feed(RowHasher h, LogRecord r) {
        h.string(r.tenantId());
        h.longValue(r.templateId());
        h.longValue(r.templateVersion());
        h.longValue(r.timeUnixNano());
        h.boxed(r.observedTimeUnixNano());
        h.longValue(r.severityNumber());
        h.string(r.severityText());
        h.string(r.scopeName());
        h.string(r.scopeVersion());
        h.string(r.attributes());
        h.longValue(r.droppedAttributesCount());
        h.string(r.resourceAttributes());
        h.bytes(r.traceId());
        h.bytes(r.spanId());
        h.longValue(r.flags());
        h.string(r.eventName());
        h.longValue(r.bodyKind());
        h.bytes(r.body());
        h.longValue(r.params().size());
        for (Param p : r.params()) {
            h.longValue(p.typeTag());
            h.bytes(p.value());
        }
        h.longValue(r.separators().size());
        for (byte[] s : r.separators()) {
            h.bytes(s);
        }
        h.longValue(Float.floatToRawIntBits(r.confidence()));
        h.longValue(r.lossyFlag() ? 1 : 0);
        h.string(r.scopeAttributes());
        h.string(r.resourceSchemaUrl());
        h.string(r.scopeSchemaUrl());
        for (Map.Entry<String, Object> e : r.extras().entrySet()) {
            if (Columns.isDerived(e.getKey()) || e.getValue() == null) {
                continue; // a null extra is the same as an absent column: union schemas add nulls
            }
            h.string(e.getKey());
            Object v = e.getValue();
            if (v instanceof byte[] b) {
                h.bytes(b);
            } else if (v instanceof Number n && !(v instanceof Float) && !(v instanceof Double)) {
                h.longValue(n.longValue());
            } else if (v instanceof Float f) {
                h.longValue(Float.floatToRawIntBits(f));
            } else if (v instanceof Double d) {
                h.longValue(Double.doubleToRawLongBits(d));
            } else {
                h.string(String.valueOf(v));
            }
        }
    }

    /** Mirrors {@link #feed(RowHasher, LogRecord)} field by field over the encoded row (see RowCodec's layout). */
    private static void feed(RowHasher h, RowCursor c) {
        c.field(); // service: derived, not hashed
        c.skipKeyTail(); // the sort key's effective time and the row's origin: not columns
        h.field(c, 0); // tenant
        h.longValue(c.i64()); // template id
        h.longValue(c.i32()); // template version
        h.longValue(c.i64()); // time
        h.boxed(c.present() ? c.i64() : null); // observed time
        if (c.present()) {
            c.i64(); // effective time: derived
        }
        h.longValue(c.i32()); // severity number
        h.field(c, 1); // severity text
        h.field(c, 2); // scope name
        h.field(c, 3); // scope version
        h.field(c); // attributes
        h.longValue(c.i32()); // dropped attributes count
        h.field(c, 4); // resource attributes
        h.field(c); // trace id
        h.field(c); // span id
        h.longValue(c.i32()); // flags
        h.field(c, 5); // event name
        h.longValue(c.i32()); // body kind
        h.field(c); // body
        int np = c.i32();
        h.longValue(np);
        for (int i = 0; i < np; i++) {
            h.longValue(c.i32());
            h.field(c);
        }
        int ns = c.i32();
        h.longValue(ns);
        for (int i = 0; i < ns; i++) {
            h.field(c);
        }
        h.longValue(c.i32()); // confidence bits
        h.longValue(c.i32()); // lossy flag
        h.field(c, 6); // scope attributes
        h.field(c, 7); // resource schema URL
        h.field(c, 8); // scope schema URL
        int nx = c.i32();
        for (int i = 0; i < nx; i++) {
            c.field();
            String name = new String(c.array(), c.offset(), c.length(), StandardCharsets.UTF_8);
            boolean skip = Columns.isDerived(name);
            int tag = c.i32();
            if (tag == RowCodec.X_NULL) {
                continue;
            }
            if (!skip) {
                h.string(name);
            }
            switch (tag) {
                case RowCodec.X_STRING, RowCodec.X_BYTES -> {
                    if (skip) {
                        c.field();
                    } else {
                        h.field(c);
                    }
                }
                case RowCodec.X_LONG, RowCodec.X_DOUBLE -> {
                    long v = c.i64();
                    if (!skip) {
                        h.longValue(v);
                    }
                }
                case RowCodec.X_INT, RowCodec.X_FLOAT -> {
                    int v = c.i32();
                    if (!skip) {
                        h.longValue(v);
                    }
                }
                case RowCodec.X_BOOLEAN -> {
                    int v = c.i32();
                    if (!skip) {
                        h.string(v != 0 ? "true" : "false");
                    }
                }
                default -> throw new IllegalStateException("BUG: extra tag " + tag);
            }
        }
    }

    /**
     * A small streaming row hash (multiply-rotate per 8-byte word in two lanes); not cryptographic. Each column value
     * is hashed once into a 64-bit word, and the word is folded into two row accumulators with different seeds and
     * rotations, so the two 64-bit sums stay independent at the row level while every byte is read only once (the
     * checksum runs on every row read and every row written, so its cost is paid twice per row). Decoded dictionary
     * values (resource attributes, scope, service) are shared String instances that repeat row after row; their
     * hashes are memoised in a small direct-mapped cache keyed by identity, which costs one array probe instead of a
     * map insertion per value.
     */
    private static final class RowHasher {
        private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles
                .byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
        private static final long SEED_A = 0x9E3779B97F4A7C15L;
        private static final long SEED_B = 0xC2B2AE3D27D4EB4FL;
        private static final long M = 0xFF51AFD7ED558CCDL;
        private static final long K1 = 0x87C37B91114253D5L;
        private static final long K2 = 0x4CF5AD432745937FL;
        private static final int MEMO_SLOTS = 256;
        private long ha;
        private long hb;
        private final String[] memoKeys = new String[MEMO_SLOTS];
        private final long[] memoHashes = new long[MEMO_SLOTS];
        private final byte[][] memoArrays = new byte[MEMO_SLOTS][];
        private final long[] memoArrayHashes = new long[MEMO_SLOTS];
        private final byte[][] lastInline = new byte[9][];
        private final long[] lastInlineHash = new long[9];

        void reset() {
            ha = SEED_A;
            hb = SEED_B;
        }

        /**
         * Folds one value into both row accumulators: each step is a bijection of the value for a given state, so
         * changing any one value changes both; the lanes differ in operator, multiplier and rotation, and the row's
         * final avalanche ({@link #finishA}, {@link #finishB}) mixes them. No per-value mixing: a row has ~30-60
         * values and this runs on every one of them, twice per compaction.
         */
        void longValue(long v) {
            ha = Long.rotateLeft((ha ^ v) * M, 29);
            hb = Long.rotateLeft((hb + v) * 0xC4CEB9FE1A85EC53L, 37);
        }

        void boxed(Long v) {
            if (v == null) {
                longValue(0x5A5A_5A5A_5A5A_5A5AL); // distinct from any present value's framing below
            } else {
                longValue(1);
                longValue(v);
            }
        }

        void string(String s) {
            if (s == null) {
                longValue(-1);
                return;
            }
            int slot = System.identityHashCode(s) & (MEMO_SLOTS - 1);
            long hash;
            if (memoKeys[slot] == s) {
                hash = memoHashes[slot];
            } else {
                byte[] b = s.getBytes(StandardCharsets.UTF_8);
                hash = hashBytes(b, 0, b.length);
                memoKeys[slot] = s;
                memoHashes[slot] = hash;
            }
            longValue(hash);
        }

        void bytes(byte[] b) {
            longValue(b == null ? -1 : hashBytes(b, 0, b.length));
        }

        /**
         * The cursor's last field, hashed exactly like {@link #string}/{@link #bytes} of its value; a table entry
         * (referenced value) is memoised by the identity of its array.
         */
        void field(RowCursor c) {
            if (!c.field()) {
                longValue(-1);
                return;
            }
            if (c.ref() < 0) {
                longValue(hashBytes(c.array(), c.offset(), c.length()));
                return;
            }
            memoised(c.array());
        }

        /**
         * Like {@link #field(RowCursor)} for a low-cardinality column ({@code slot} names it): an inline value equal
         * to the previous one of the same column reuses its hash. Rows merged back from spill runs carry such
         * values inline (a 230-byte resource attributes JSON, repeated row after row in sorted output), and one
         * vectorised comparison is far cheaper than hashing them again.
         */
        void field(RowCursor c, int slot) {
            if (!c.field()) {
                longValue(-1);
                return;
            }
            if (c.ref() >= 0) {
                memoised(c.array());
                return;
            }
            byte[] last = lastInline[slot];
            int off = c.offset();
            int len = c.length();
            if (last != null && last.length == len && Arrays.equals(last, 0, len, c.array(), off, off + len)) {
                longValue(lastInlineHash[slot]);
                return;
            }
            long hash = hashBytes(c.array(), off, len);
            lastInline[slot] = Arrays.copyOfRange(c.array(), off, off + len);
            lastInlineHash[slot] = hash;
            longValue(hash);
        }

        private void memoised(byte[] a) {
            int slot = System.identityHashCode(a) & (MEMO_SLOTS - 1);
            long hash;
            if (memoArrays[slot] == a) {
                hash = memoArrayHashes[slot];
            } else {
                hash = hashBytes(a, 0, a.length);
                memoArrays[slot] = a;
                memoArrayHashes[slot] = hash;
            }
            longValue(hash);
        }

        /**
         * Hashes a byte range 16 bytes at a time in two independent lanes (multiply, rotate, multiply per 8-byte
         * word), so the CPU overlaps them; a final avalanche mixes the lanes, the tail and the length. Every value
         * of every row is hashed twice per compaction (read side and write side), so this loop is the checksum's
         * cost, which is to stay under 5 % of a compaction (see docs/benchmarks.md).
         */
        private static long hashBytes(byte[] b, int off, int len) {
            if (len < 8) { // separators, short params: packed with their length, times an odd constant (injective)
                long w = 0;
                for (int j = len - 1; j >= 0; j--) {
                    w = (w << 8) | (b[off + j] & 0xFF);
                }
                return ((w << 8) | len) * K1;
            }
            long x = SEED_A ^ (len * 0x9E3779B97F4A7C15L);
            long y = SEED_B;
            int i = 0;
            for (; i + 16 <= len; i += 16) {
                x = Long.rotateLeft(x ^ ((long) LONGS.get(b, off + i) * K1), 31) * K2;
                y = Long.rotateLeft(y ^ ((long) LONGS.get(b, off + i + 8) * K2), 29) * K1;
            }
            if (i + 8 <= len) {
                x = Long.rotateLeft(x ^ ((long) LONGS.get(b, off + i) * K1), 31) * K2;
                i += 8;
            }
            long w = 0;
            for (int j = len - 1; j >= i; j--) {
                w = (w << 8) | (b[off + j] & 0xFF);
            }
            return mix(x ^ Long.rotateLeft(y, 17) ^ mix(w ^ 0x2545F4914F6CDD1DL));
        }

        long finishA() {
            return mix(ha);
        }

        long finishB() {
            return mix(hb ^ 0x94D049BB133111EBL);
        }

        private static long mix(long z) {
            z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
            z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
            return z ^ (z >>> 33);
        }
    }
}
