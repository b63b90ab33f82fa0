package dev.ourios.compaction;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import java.nio.charset.StandardCharsets;
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

    /** {@code hashing = false} counts rows only (a benchmark seam measuring the hashing's cost). */
    RowChecksum(boolean hashing) {
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

    public long rows() {
        return rows;
    }

    /** {@code <rows>:<32 hex digits>}, the form recorded in the manifest's commit record. */
    public String value() {
        return rows + ":" + String.format("%016x%016x", sumA, sumB);
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

    /**
     * A small streaming row hash (multiply-xorshift mixing per 8-byte word); not cryptographic. Each column value is
     * hashed once into a 64-bit word, and the word is folded into two row accumulators with different seeds and
     * rotations, so the two 64-bit sums stay independent at the row level while every byte is read only once (the
     * checksum runs on every row read and every row written, so its cost is paid twice per row). Variable-length
     * values are hashed 8 bytes at a time. Decoded dictionary values (resource attributes, scope, service) are
     * shared String instances that repeat row after row; their hashes are memoised in a small direct-mapped cache
     * keyed by identity, which costs one array probe instead of a map insertion per value.
     */
    private static final class RowHasher {
        private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles
                .byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
        private static final long SEED_A = 0x9E3779B97F4A7C15L;
        private static final long SEED_B = 0xC2B2AE3D27D4EB4FL;
        private static final long M = 0xFF51AFD7ED558CCDL;
        private static final int MEMO_SLOTS = 256;
        private long ha;
        private long hb;
        private final String[] memoKeys = new String[MEMO_SLOTS];
        private final long[] memoHashes = new long[MEMO_SLOTS];

        void reset() {
            ha = SEED_A;
            hb = SEED_B;
        }

        void longValue(long v) {
            long x = mix(v + 0x632BE59BD9B4E019L);
            ha = Long.rotateLeft((ha ^ x) * M, 29);
            hb = Long.rotateLeft((hb ^ x) * 0xC4CEB9FE1A85EC53L, 37);
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
                hash = hashBytes(s.getBytes(StandardCharsets.UTF_8));
                memoKeys[slot] = s;
                memoHashes[slot] = hash;
            }
            longValue(hash);
        }

        void bytes(byte[] b) {
            longValue(b == null ? -1 : hashBytes(b));
        }

        private static long hashBytes(byte[] b) {
            long x = SEED_A ^ (b.length * 0x9E3779B97F4A7C15L);
            int i = 0;
            for (; i + 8 <= b.length; i += 8) {
                x = Long.rotateLeft((x ^ mix((long) LONGS.get(b, i))) * M, 31);
            }
            long w = 0;
            for (int j = b.length - 1; j >= i; j--) {
                w = (w << 8) | (b[j] & 0xFF);
            }
            return mix(x ^ mix(w ^ 0x2545F4914F6CDD1DL));
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
