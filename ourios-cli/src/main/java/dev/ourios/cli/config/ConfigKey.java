package dev.ourios.cli.config;

import java.util.Objects;
import java.util.Optional;

/**
 * One configuration setting: its dotted name in the YAML file, the environment variable that overrides the file,
 * the command-line flag that overrides both (if any), its default and how its value is checked.
 *
 * @param name         dotted path in the YAML file, e.g. {@code compaction.grace}
 * @param env          the {@code OURIOS_*} variable that overrides the file
 * @param flag         the flag of {@code ourios serve} that overrides the environment, if any
 * @param defaultValue the value when nothing sets it; empty = unset (the setting is optional)
 * @param kind         how the text value is checked and converted
 * @param secret       masked when the effective configuration is printed
 * @param description  one line for the docs and {@code config check}
 */
public record ConfigKey(String name, String env, Optional<String> flag, Optional<String> defaultValue, Kind kind,
        boolean secret, String description) {

    /** The value syntaxes; the same ones the CLI's flags accept (CLI.md). */
    public enum Kind {
        STRING, DURATION, SIZE, INT, FRACTION, BOOLEAN, LISTEN, URL, PATH
    }

    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(flag, "flag");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(description, "description");
    }

    /** The YAML sections this key sits in, e.g. {@code compaction} for {@code compaction.grace}. */
    public String section() {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(0, dot);
    }

    /** The last segment of the name, e.g. {@code grace}. */
    public String leaf() {
        return name.substring(name.lastIndexOf('.') + 1);
    }
}
