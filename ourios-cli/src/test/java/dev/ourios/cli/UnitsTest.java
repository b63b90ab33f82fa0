package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Sizes and durations: values a long cannot hold are one usage line naming the flag, not a stack trace. */
class UnitsTest {
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
