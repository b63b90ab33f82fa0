package dev.ourios.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.cli.Units;
import dev.ourios.cli.config.ConfigKey.Kind;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The registry is consistent with itself: one variable and flag per key, every default inside its own range. */
class ConfigKeysTest {
    private final ConfigKeys keys = ConfigKeys.standard();

    @Test
    void every_default_parses_and_lies_in_its_range() {
        for (ConfigKey k : keys.all()) {
            if (k.defaultValue().isEmpty()) {
                continue;
            }
            String d = k.defaultValue().get();
            long n = switch (k.kind()) {
                case SIZE -> Units.parseSize(k.name(), d);
                case INT -> Integer.parseInt(d);
                default -> 0;
            };
            if (k.kind() == Kind.SIZE || k.kind() == Kind.INT) {
                assertTrue(k.range().contains(n), k.name() + ": default " + d + " outside " + k.range());
            }
            if (k.kind() == Kind.INT) {
                assertTrue(k.range().min() >= Integer.MIN_VALUE && k.range().max() <= Integer.MAX_VALUE, k.name());
            }
            if (k.kind() == Kind.SIZE) {
                assertTrue(k.unit().startsWith("bytes"), k.name() + ": a size counts bytes, not " + k.unit());
            }
        }
        // The defaults together are a valid configuration of serve.
        OuriosConfig.from(new ConfigLoader(keys, Map.of()).load(Optional.empty(), Map.of()), keys);
    }

    @Test
    void variables_and_flags_name_one_key_each() {
        assertEquals(keys.all().size(), keys.all().stream().map(ConfigKey::env).distinct().count(),
                "one variable per key");
        var flags = keys.all().stream().flatMap(k -> k.flag().stream()).toList();
        assertEquals(flags.size(), flags.stream().distinct().count(), "one key per flag");
        for (String flag : flags) {
            assertEquals(flag, keys.findByFlag(flag).orElseThrow().flag().orElseThrow());
        }
    }

    @Test
    void a_value_outside_the_range_is_refused_naming_the_key_and_the_range() {
        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                () -> OuriosConfig.from(new ConfigLoader(keys, Map.of("OURIOS_HTTP_THREADS", "257"))
                        .load(Optional.empty(), Map.of()), keys));
        assertEquals("http.threads (env OURIOS_HTTP_THREADS): must be 1..256 (got 257)", e.getMessage());
        ConfigException small = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                () -> OuriosConfig.from(new ConfigLoader(keys, Map.of("OURIOS_INGEST_FLUSH_BYTES", "1000"))
                        .load(Optional.empty(), Map.of()), keys));
        assertEquals("ingest.flush_bytes (env OURIOS_INGEST_FLUSH_BYTES): must be at least 1024 bytes (got 1000)",
                small.getMessage());
    }
}
