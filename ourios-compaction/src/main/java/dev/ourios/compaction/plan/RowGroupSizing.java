package dev.ourios.compaction.plan;

import java.util.OptionalLong;

/**
 * The compacted row-group threshold (STORAGE.md §5, RFC 0036 §3.3 amended): {@code clamp(input bytes / 8, 1 MiB,
 * 32 MiB)}. Eight groups per partition are enough for a one-service window to prune on the reference's real corpus;
 * a fixed 32 MiB would be inert on real hours (a few MiB each, so one group) and fragment big ones. An explicit
 * setting wins over {@code OURIOS_COMPACTED_RG_BYTES}, which wins over the adaptive value.
 */
public final class RowGroupSizing {
    public static final long MIN_BYTES = 1L << 20;
    public static final long MAX_BYTES = 32L << 20;
    public static final int TARGET_GROUPS = 8;
    public static final String ENV = "OURIOS_COMPACTED_RG_BYTES";

    private RowGroupSizing() {
    }

    public static long adaptive(long inputBytes) {
        return Math.max(MIN_BYTES, Math.min(MAX_BYTES, inputBytes / TARGET_GROUPS));
    }

    /** Resolves the threshold; {@code envValue} is the raw environment value (null, blank or 0 = unset). */
    public static long resolve(OptionalLong explicit, String envValue, long inputBytes) {
        if (explicit.isPresent()) {
            return explicit.getAsLong();
        }
        if (envValue != null && !envValue.isBlank()) {
            try {
                long v = Long.parseLong(envValue.trim());
                if (v > 0) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // Non-numeric means unset, as the reference does; the adaptive value applies.
            }
        }
        return adaptive(inputBytes);
    }
}
