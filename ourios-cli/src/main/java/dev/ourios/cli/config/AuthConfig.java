package dev.ourios.cli.config;

import dev.ourios.security.KeyRing;
import dev.ourios.security.KeysFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * Authorization of {@code ourios serve} ({@code auth.*}): the API keys file, or none (no authorization, which
 * {@code serve} allows on loopback addresses only).
 *
 * @param keysFile the keys file, if configured
 * @param label    how messages name the setting (key, and the variable or flag that set it)
 */
public record AuthConfig(Optional<Path> keysFile, String label) {
    public AuthConfig {
        Objects.requireNonNull(keysFile, "keysFile");
        Objects.requireNonNull(label, "label");
    }

    /** The setting alone, for commands that need nothing else of the configuration ({@code ourios keys}). */
    public static AuthConfig resolve(ResolvedConfig resolved) {
        return from(new Values(resolved));
    }

    static AuthConfig from(Values v) {
        Optional<Path> file = v.optional(ConfigKeys.AUTH_KEYS_FILE).map(x -> v.path(ConfigKeys.AUTH_KEYS_FILE));
        return new AuthConfig(file, v.label(ConfigKeys.AUTH_KEYS_FILE));
    }

    /** Reads the keys file, if any; one that does not read is a configuration error naming the setting. */
    public Optional<KeyRing> open(Clock clock) {
        try {
            return keysFile.map(f -> KeyRing.open(f, clock));
        } catch (KeysFileException e) {
            throw new ConfigException(label + ": " + e.getMessage(), e);
        }
    }
}
