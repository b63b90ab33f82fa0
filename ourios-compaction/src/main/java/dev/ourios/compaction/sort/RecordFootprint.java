package dev.ourios.compaction.sort;

import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import java.util.Map;

/**
 * An upper bound of the heap one decoded {@link LogRecord} occupies, for the sort budget. Deliberately pessimistic:
 * every String is costed as UTF-16 (2 bytes a char) with its own header and backing array even when the JVM
 * compacts it to Latin-1 or shares it through the reader's dictionary; every box, list and array gets a 16-byte
 * header and 8-byte alignment; references are costed at 8 bytes (no compressed oops). The reference's lesson
 * (reference-implementation.md §7.1): a budget on encoded bytes is not a memory bound; this is on decoded rows.
 */
public final class RecordFootprint {
    private static final long OBJECT_HEADER = 16;
    private static final long REF = 8;
    /** LogRecord object: header + 28 fields (refs and primitives, each ≤ 8 bytes). */
    private static final long RECORD_SHELL = OBJECT_HEADER + 28 * 8;
    /** The reference in the buffer that holds the row. */
    private static final long SLOT = REF;

    private RecordFootprint() {
    }

    /** Bookkeeping per distinct shared string: an IdentityHashMap slot pair plus growth slack. */
    private static final long SHARED_ENTRY = 48;

    /** The footprint of a row whose strings are all its own. */
    public static long estimate(LogRecord r) {
        return estimate(r, null);
    }

    /**
     * The footprint of a row added to a buffer whose dictionary-decoded strings may be shared with earlier rows
     * (the reader decodes each dictionary value once and hands out the same instance). {@code seen} holds the
     * instances already paid for in this buffer; a shared instance costs only the row's reference to it, a new one
     * its full size plus the map entry that remembers it. Only low-cardinality columns are tracked, so the map
     * stays small; everything else is costed per row.
     */
    public static long estimate(LogRecord r, java.util.IdentityHashMap<String, Boolean> seen) {
        long n = RECORD_SHELL + SLOT;
        n += shared(r.tenantId(), seen);
        n += box(r.observedTimeUnixNano());
        n += box(r.effectiveTimeUnixNano());
        n += shared(r.severityText(), seen) + shared(r.scopeName(), seen) + shared(r.scopeVersion(), seen);
        n += string(r.attributes()) + shared(r.resourceAttributes(), seen);
        n += bytes(r.traceId()) + bytes(r.spanId());
        n += string(r.eventName());
        n += bytes(r.body());
        n += list(r.params().size());
        for (Param p : r.params()) {
            n += align(OBJECT_HEADER + 4 + REF) + bytes(p.value());
        }
        n += list(r.separators().size());
        for (byte[] s : r.separators()) {
            n += bytes(s);
        }
        n += shared(r.scopeAttributes(), seen) + shared(r.resourceSchemaUrl(), seen)
                + shared(r.scopeSchemaUrl(), seen);
        n += shared(r.serviceName(), seen);
        n += OBJECT_HEADER + 48; // the extras map shell
        for (Map.Entry<String, Object> e : r.extras().entrySet()) {
            n += 64 + string(e.getKey()) + value(e.getValue()); // TreeMap entry + key + value
        }
        return n;
    }

    private static long shared(String s, java.util.IdentityHashMap<String, Boolean> seen) {
        if (s == null || seen == null) {
            return string(s);
        }
        return seen.put(s, Boolean.TRUE) == null ? string(s) + SHARED_ENTRY : 0;
    }

    private static long value(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof String s) {
            return string(s);
        }
        if (v instanceof byte[] b) {
            return bytes(b);
        }
        return OBJECT_HEADER + 8;
    }

    private static long string(String s) {
        // String object (header + hash + coder + value ref) + char array at 2 bytes/char.
        return s == null ? 0 : align(OBJECT_HEADER + 16) + align(OBJECT_HEADER + 2L * s.length());
    }

    private static long bytes(byte[] b) {
        return b == null ? 0 : align(OBJECT_HEADER + b.length);
    }

    private static long box(Long v) {
        return v == null ? 0 : OBJECT_HEADER + 8;
    }

    private static long list(int size) {
        return align(OBJECT_HEADER + 16) + align(OBJECT_HEADER + REF * (long) size);
    }

    private static long align(long n) {
        return (n + 7) & ~7L;
    }
}
