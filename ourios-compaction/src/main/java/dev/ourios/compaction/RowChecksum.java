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

    public void add(LogRecord r) {
        RowHasher a = new RowHasher(0x9E3779B97F4A7C15L);
        RowHasher b = new RowHasher(0xC2B2AE3D27D4EB4FL);
        feed(a, r);
        feed(b, r);
        rows++;
        sumA += a.finish();
        sumB += b.finish();
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

    /** A small streaming 64-bit hash (multiply-xorshift mixing per 8-byte word); not cryptographic. */
    private static final class RowHasher {
        private long h;
        private static final long M = 0xFF51AFD7ED558CCDL;

        RowHasher(long seed) {
            this.h = seed;
        }

        void longValue(long v) {
            h ^= mix(v + 0x632BE59BD9B4E019L);
            h *= M;
            h = Long.rotateLeft(h, 29);
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
            bytes(s == null ? null : s.getBytes(StandardCharsets.UTF_8));
        }

        void bytes(byte[] b) {
            if (b == null) {
                longValue(-1);
                return;
            }
            longValue(b.length);
            int i = 0;
            for (; i + 8 <= b.length; i += 8) {
                long w = 0;
                for (int j = 0; j < 8; j++) {
                    w = (w << 8) | (b[i + j] & 0xFF);
                }
                longValue(w);
            }
            long w = 0;
            for (; i < b.length; i++) {
                w = (w << 8) | (b[i] & 0xFF);
            }
            longValue(w);
        }

        long finish() {
            return mix(h);
        }

        private static long mix(long z) {
            z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
            z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
            return z ^ (z >>> 33);
        }
    }
}
