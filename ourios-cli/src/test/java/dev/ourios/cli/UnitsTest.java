package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Sizes and durations: values a long cannot hold are one usage line naming the flag, not a stack trace; a default
 * the registry renders from a library constant reads back as that constant.
 */
class UnitsTest {
    @Test
    void formatted_sizes_and_durations_read_back_as_the_same_value() {
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        System.out.println("UnitsTest seed " + seed);
        Random rnd = new Random(seed);
        for (int i = 0; i < 2_000; i++) {
            long size = switch (rnd.nextInt(3)) {
                case 0 -> rnd.nextInt(5000);
                case 1 -> (long) (1 + rnd.nextInt(1 << 20)) << (10 * rnd.nextInt(5));
                default -> rnd.nextLong() >>> 1;
            };
            assertEquals(size, Units.parseSize("s", Units.formatSize(size)), "seed " + seed + ": " + size);
            Duration d = switch (rnd.nextInt(3)) {
                case 0 -> Duration.ofMillis(rnd.nextInt(100_000));
                case 1 -> Duration.ofMinutes(rnd.nextInt(10_000));
                default -> Duration.ofMillis(rnd.nextLong() >>> 20);
            };
            assertEquals(d, Units.parseDuration("d", Units.formatDuration(d)), "seed " + seed + ": " + d);
        }
        assertEquals("64MiB", Units.formatSize(64L << 20));
        assertEquals("1000", Units.formatSize(1000));
        assertEquals("0", Units.formatSize(0));
        assertEquals("15m", Units.formatDuration(Duration.ofMinutes(15)));
        assertEquals("90m", Units.formatDuration(Duration.ofMinutes(90)));
        assertEquals("1d", Units.formatDuration(Duration.ofHours(24)));
        assertEquals("0ms", Units.formatDuration(Duration.ZERO));
    }

    @Test
    void sizes_and_durations_parse_and_overflow_is_a_usage_error() {
        assertEquals(64L << 20, Units.parseSize("--sort-budget", "64MiB"));
        assertEquals(Duration.ofMinutes(90), Units.parseDuration("--grace", "1h30m"));
        assertEquals("--sort-budget: '99999999999999999999' is too large",
                assertThrows(UsageException.class, () -> Units.parseSize("--sort-budget", "99999999999999999999"))
                        .getMessage());
        assertEquals("--sort-budget: '9000000000TiB' is too large",
                assertThrows(UsageException.class, () -> Units.parseSize("--sort-budget", "9000000000TiB"))
                        .getMessage());
        assertEquals("--grace: '99999999999999999999d' is too long a duration",
                assertThrows(UsageException.class, () -> Units.parseDuration("--grace", "99999999999999999999d"))
                        .getMessage());
        assertEquals("--grace: '9223372036854775807d' is too long a duration",
                assertThrows(UsageException.class, () -> Units.parseDuration("--grace", "9223372036854775807d"))
                        .getMessage());
    }

    @Test
    void a_bad_row_group_variable_is_refused_naming_it() {
        CompactionFlags flags = new CompactionFlags();
        assertEquals(java.util.OptionalLong.empty(), flags.rowGroupBytes(null));
        assertEquals(java.util.OptionalLong.empty(), flags.rowGroupBytes("  "));
        assertEquals(java.util.OptionalLong.of(8_388_608), flags.rowGroupBytes("8388608"));
        for (String bad : new String[] {"8MiB", "0", "-5", "1023", "12x", "99999999999999999999"}) {
            UsageException e = assertThrows(UsageException.class, () -> flags.rowGroupBytes(bad), bad);
            assertEquals(true, e.getMessage().startsWith("OURIOS_COMPACTED_RG_BYTES: '" + bad + "'"), e.getMessage());
        }
    }
}
