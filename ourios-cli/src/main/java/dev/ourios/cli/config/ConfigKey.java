package dev.ourios.cli.config;

import java.util.Objects;
import java.util.Optional;

/**
 * One setting: its dotted name in the YAML file, the environment variable that overrides the file, the command-line
 * flag that overrides both (if any), its default, the range the loader accepts, its unit and how its value is
 * checked. {@link ConfigKeys} holds every one; flags, {@code config check} and the docs' tables read them from there.
 *
 * @param name         dotted path in the YAML file, e.g. {@code compaction.grace}
 * @param env          the {@code OURIOS_*} variable that overrides the file
 * @param flag         the flag of {@code ourios serve} (and, for {@code compaction.*}, of {@code ourios compact})
 *                     that overrides the environment, if any
 * @param defaultValue the value when nothing sets it, in the syntax a flag takes; empty = unset (optional)
 * @param kind         how the text value is checked and converted
 * @param range        the bounds the loader accepts for an {@link Kind#INT} or {@link Kind#SIZE} value
 * @param unit         what the number counts ({@code bytes}, {@code bytes per second}, {@code requests}, ...);
 *                     empty when the kind says it all
 * @param secret       masked when the effective configuration is printed
 * @param description  one line for the docs and {@code config check}
 */
public record ConfigKey(String name, String env, Optional<String> flag, Optional<String> defaultValue, Kind kind,
        Range range, String unit, boolean secret, String description) {

    /** The value syntaxes; the same ones the CLI's flags accept (CLI.md). */
    public enum Kind {
        STRING, DURATION, SIZE, INT, FRACTION, BOOLEAN, LISTEN, URL, PATH
    }

    /**
     * Inclusive bounds of a number; for a size, in bytes.
     *
     * @param min the smallest accepted value
     * @param max the largest accepted value
     */
    public record Range(long min, long max) {
        /** Any value the kind's syntax gives. */
        public static final Range ANY = new Range(Long.MIN_VALUE, Long.MAX_VALUE);

        public Range {
            if (min > max) {
                throw new IllegalArgumentException("BUG: range " + min + ".." + max + " is empty");
            }
        }

        public static Range of(long min, long max) {
            return new Range(min, max);
        }

        public static Range atLeast(long min) {
            return new Range(min, Long.MAX_VALUE);
        }

        public boolean contains(long v) {
            return v >= min && v <= max;
        }
    }

    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(flag, "flag");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(description, "description");
    }

    /** This key with the bounds the loader accepts and what its number counts. */
    public ConfigKey withRange(Range r, String u) {
        return new ConfigKey(name, env, flag, defaultValue, kind, r, u, secret, description);
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
