package dev.ourios.cli.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The effective value of one key and where it came from.
 *
 * @param value  the text value; empty = unset (only for optional keys)
 * @param source {@code default}, {@code file <path>}, {@code env OURIOS_…} or {@code flag --…}
 */
public record Setting(ConfigKey key, Optional<String> value, String source) {
    public Setting {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(source, "source");
    }

    /** How errors name this setting: the key, and the variable or flag when that is what set it. */
    public String label() {
        return source.equals("default") || source.startsWith("file ") ? key.name()
                : key.name() + " (" + source + ")";
    }

    /** The value as {@code config check} prints it: secrets masked. */
    public String shown() {
        return value.map(v -> key.secret() ? "********" : v).orElse("");
    }
}
