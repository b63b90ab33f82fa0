package dev.ourios.server.auth;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Authorization of the service: the API keys file, or none (no authorization, allowed on loopback addresses only
 * unless {@code insecureNoAuth}).
 *
 * @param keysFile       the keys file, if configured
 * @param keysLabel      how messages name the keys-file setting (key, and the variable or flag that set it)
 * @param insecureNoAuth serve non-loopback addresses without keys (logged as a warning at every start)
 */
public record AuthSettings(Optional<Path> keysFile, String keysLabel, boolean insecureNoAuth) {
    public AuthSettings {
        Objects.requireNonNull(keysFile, "keysFile");
        Objects.requireNonNull(keysLabel, "keysLabel");
    }
}
