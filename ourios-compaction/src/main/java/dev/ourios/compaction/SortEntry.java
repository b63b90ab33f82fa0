package dev.ourios.compaction;

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

    static SortEntry of(LogRecord r, long footprint) {
        String s = r.serviceName();
        return new SortEntry(s == null ? null : s.getBytes(StandardCharsets.UTF_8), r.effectiveTime(), r, footprint);
    }

    static int compareService(byte[] a, byte[] b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return Arrays.compareUnsigned(a, b);
    }
}
