package dev.ourios.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsing of the CLI's value syntaxes (CLI.md): sizes {@code 64MiB}, durations {@code 15m}, RFC 3339 times. */
public final class Units {
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private Units() {
    }

    public static long parseSize(String option, String value) {
        Matcher m = SIZE.matcher(value.trim());
        if (!m.matches()) {
            throw new UsageException(option + ": '" + value + "' is not a size (use e.g. 64MiB, 1GiB or plain bytes)");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new UsageException(option + ": '" + value + "' is too large");
        }
        String unit = m.group(2) == null ? "B" : m.group(2).toUpperCase(Locale.ROOT);
        long mult = switch (unit) {
            case "B" -> 1L;
            case "KIB" -> 1L << 10;
            case "MIB" -> 1L << 20;
            case "GIB" -> 1L << 30;
            case "TIB" -> 1L << 40;
            case "KB" -> 1_000L;
            case "MB" -> 1_000_000L;
            case "GB" -> 1_000_000_000L;
            case "TB" -> 1_000_000_000_000L;
            default -> throw new UsageException(option + ": unknown size unit in '" + value + "'");
        };
        try {
            return Math.multiplyExact(n, mult);
        } catch (ArithmeticException e) {
            throw new UsageException(option + ": '" + value + "' is too large");
        }
    }

    public static Duration parseDuration(String option, String value) {
        String v = value.trim();
        if (v.isEmpty()) {
            throw new UsageException(option + ": empty duration");
        }
        Matcher m = DURATION.matcher(v);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) {
                break;
            }
            try {
                long n = Long.parseLong(m.group(1));
                total = total.plus(switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                });
            } catch (ArithmeticException | NumberFormatException e) {
                throw new UsageException(option + ": '" + value + "' is too long a duration");
            }
            end = m.end();
        }
        if (end != v.length()) {
            throw new UsageException(option + ": '" + value + "' is not a duration (use e.g. 15m, 10s, 2h, 1h30m)");
        }
        return total;
    }

    public static Instant parseTime(String option, String value) {
        try {
            return java.time.OffsetDateTime.parse(value.trim()).toInstant();
        } catch (DateTimeParseException e) {
            throw new UsageException(option + ": '" + value + "' is not an RFC 3339 time (e.g. 2026-11-01T10:00:00Z)");
        }
    }

    /**
     * A size in the syntax {@link #parseSize} reads back to the same number: the largest binary unit that divides it
     * ({@code 134217728} is {@code 128MiB}), else plain bytes.
     */
    public static String formatSize(long bytes) {
        String[] units = {"TiB", "GiB", "MiB", "KiB"};
        for (int i = 0; i < units.length; i++) {
            long unit = 1L << (10 * (units.length - i));
            if (bytes != 0 && bytes % unit == 0) {
                return bytes / unit + units[i];
            }
        }
        return Long.toString(bytes);
    }

    /**
     * A duration in the syntax {@link #parseDuration} reads back to the same length: the largest unit that divides it
     * ({@code PT15M} is {@code 15m}), down to milliseconds.
     */
    public static String formatDuration(Duration d) {
        long ms = d.toMillis();
        if (d.isNegative() || !Duration.ofMillis(ms).equals(d)) {
            throw new IllegalArgumentException("BUG: " + d + " is not a whole, non-negative number of milliseconds");
        }
        long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
        String[] units = {"d", "h", "m", "s"};
        for (int i = 0; i < sizes.length; i++) {
            if (ms != 0 && ms % sizes[i] == 0) {
                return ms / sizes[i] + units[i];
            }
        }
        return ms + "ms";
    }

    public static String formatBytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int i = -1;
        while (v >= 1024 && i < units.length - 1) {
            v /= 1024;
            i++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[i]);
    }
}
