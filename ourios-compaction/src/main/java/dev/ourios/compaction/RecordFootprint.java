package dev.ourios.compaction;

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

    public static long estimate(LogRecord r) {
        long n = RECORD_SHELL + SLOT;
        n += string(r.tenantId());
        n += box(r.observedTimeUnixNano());
        n += box(r.effectiveTimeUnixNano());
        n += string(r.severityText()) + string(r.scopeName()) + string(r.scopeVersion());
        n += string(r.attributes()) + string(r.resourceAttributes());
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
        n += string(r.scopeAttributes()) + string(r.resourceSchemaUrl()) + string(r.scopeSchemaUrl());
        n += string(r.serviceName());
        n += OBJECT_HEADER + 48; // the extras map shell
        for (Map.Entry<String, Object> e : r.extras().entrySet()) {
            n += 64 + string(e.getKey()) + value(e.getValue()); // TreeMap entry + key + value
        }
        return n;
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
