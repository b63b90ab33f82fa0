package dev.ourios.compaction.plan;

import java.util.OptionalLong;

/**
 * The compacted row-group threshold (STORAGE.md §5, RFC 0036 §3.3 amended): {@code clamp(input bytes / 8, 1 MiB,
 * 32 MiB)}. Eight groups per partition are enough for a one-service window to prune on the reference's real corpus;
 * a fixed 32 MiB would be inert on real hours (a few MiB each, so one group) and fragment big ones. A setting wins
 * over the adaptive value; the application resolves {@code --row-group-bytes}, else {@code OURIOS_COMPACTED_RG_BYTES}
 * ({@link #parseEnv}), into that setting, so nothing here reads the environment.
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

    /** The smallest adaptive threshold under a small band bound. */
    public static final long MIN_BAND_BYTES = 64L << 10;

    /** Resolves the threshold: the setting, else the adaptive value. */
    public static long resolve(OptionalLong setting, long inputBytes) {
        return setting.isPresent() ? setting.getAsLong() : adaptive(inputBytes);
    }

    /**
     * Resolves the threshold for outputs of at most {@code maxFileBytes} each: the setting wins; the adaptive value is
     * at most {@code maxFileBytes / 16} (at least 64 KiB), so a band file holds several row groups beside its footer.
     * Under the default bound (2 GiB) this is the adaptive value itself.
     */
    public static long resolve(OptionalLong setting, long inputBytes, long maxFileBytes) {
        if (setting.isPresent()) {
            return setting.getAsLong();
        }
        return Math.min(adaptive(inputBytes), Math.max(MIN_BAND_BYTES, maxFileBytes / 16));
    }

    /**
     * Parses the raw value of {@link #ENV}, for the application that reads it: null or blank is unset; otherwise a plain byte count of at least 1 KiB
     * (the smallest row group {@code --row-group-bytes} accepts). Anything else is refused with one line naming
     * the variable, rather than silently meaning "adaptive".
     */
    public static OptionalLong parseEnv(String envValue) {
        if (envValue == null || envValue.isBlank()) {
            return OptionalLong.empty();
        }
        String v = envValue.trim();
        long n;
        try {
            n = v.chars().allMatch(c -> c >= '0' && c <= '9') ? Long.parseLong(v) : -1;
        } catch (NumberFormatException e) {
            n = -1; // more digits than a long holds
        }
        if (n < 1024) {
            throw new IllegalArgumentException(ENV + ": '" + envValue + "' is not a byte count of at least 1024 "
                    + "(plain bytes, e.g. 8388608; unset it for the adaptive size)");
        }
        return OptionalLong.of(n);
    }
}
