package dev.ourios.compaction.sort;

import dev.ourios.core.LogRecord;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * A buffered row with its sort key materialised once: the service name's UTF-8 bytes (null first) and the effective
 * time. Comparing pre-encoded bytes avoids re-encoding the name on every comparison.
 */
record SortEntry(byte[] service, long time, LogRecord record, long footprint) {

    static final Comparator<SortEntry> ORDER = (a, b) -> {
        int c = compareService(a.service, b.service);
        return c != 0 ? c : Long.compare(a.time, b.time);
    };

    /** The entry object itself (header, 4 fields) and its key bytes: part of what a buffered row costs. */
    static long overhead(byte[] service) {
        return 48 + (service == null ? 0 : ((16 + service.length + 7) & ~7L));
    }

    /** {@code recordFootprint} is the record's estimate; the entry adds its own overhead to it. */
    static SortEntry of(LogRecord r, long recordFootprint) {
        String s = r.serviceName();
        byte[] key = s == null ? null : s.getBytes(StandardCharsets.UTF_8);
        return new SortEntry(key, r.effectiveTime(), r, recordFootprint + overhead(key));
    }

    static int compareService(byte[] a, byte[] b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return Arrays.compareUnsigned(a, b);
    }
}
