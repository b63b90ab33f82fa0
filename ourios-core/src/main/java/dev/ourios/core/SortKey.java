package dev.ourios.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The compaction sort key (STORAGE.md §5): {@code resource.service.name} by UTF-8 bytes with null first, then
 * effective time ascending. Ties are broken by the caller's (input ordinal, row ordinal), which a stable sort of
 * rows in that order gives for free.
 */
public final class SortKey {
    /** Compares two service names by their UTF-8 bytes, null first. */
    public static final Comparator<String> SERVICE_ORDER = (a, b) -> {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    };

    /** The record order, without the positional tie-break. */
    public static final Comparator<LogRecord> RECORD_ORDER = Comparator
            .comparing(LogRecord::serviceName, SERVICE_ORDER)
            .thenComparingLong(LogRecord::effectiveTime);

    private SortKey() {
    }
}
