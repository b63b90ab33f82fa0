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

    /**
     * {@link #SERVICE_ORDER} without encoding either name: UTF-8 byte order is code point order, which UTF-16 code
     * units keep except that a surrogate (a code point above U+FFFF) sorts after U+E000..U+FFFF; so each unit is
     * moved to where its code point sorts before comparing. For comparisons made once per row.
     */
    public static int compareServices(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return codePointRank(x) - codePointRank(y);
            }
        }
        return a.length() - b.length();
    }

    private static int codePointRank(char c) {
        if (c >= 0xE000) {
            return c - 0x800;
        }
        return c >= 0xD800 ? c + 0x2000 : c;
    }
}
