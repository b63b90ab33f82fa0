package dev.ourios.server.auth;

import dev.ourios.security.Authorizer;
import dev.ourios.security.KeyRing;
import dev.ourios.security.KeysFileException;
import dev.ourios.server.StartupException;
import io.opentelemetry.api.metrics.MeterProvider;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The authorization of one {@code serve} process, set up before anything listens: the listen-address rule, the keys
 * file read (a bad one stops the start with a {@link StartupException} naming the setting), SIGHUP wired to a reload, and the {@link Authorizer} both HTTP
 * servers ask.
 */
public final class ServeAuth {
    private final Authorizer authorizer;
    private final Optional<KeyRing> keys;

    private ServeAuth(Authorizer authorizer, Optional<KeyRing> keys) {
        this.authorizer = authorizer;
        this.keys = keys;
    }

    /**
     * @param listeners every address the service binds, each with the setting that names it
     * @param warn      receives the {@code --insecure-no-auth} warning, at every start it is given
     * @param reloaded  receives a notice after each re-read on SIGHUP
     * @throws StartupException an address the loopback rule refuses, or a keys file that does not read
     */
    public static ServeAuth start(AuthSettings settings, List<ListenGuard.Listener> listeners, MeterProvider meters,
            Clock clock, Consumer<String> warn, Consumer<String> reloaded) {
        Optional<String> keysLabel = settings.keysFile().map(f -> settings.keysLabel() + " " + f);
        ListenGuard.check(listeners, keysLabel, settings.insecureNoAuth()).ifPresent(warn);
        Optional<KeyRing> ring = open(settings, clock);
        AuthMetrics metrics = new AuthMetrics(meters);
        ring.ifPresent(r -> ReloadOnHangup.install(r, reloaded));
        return new ServeAuth(ring.map(r -> Authorizer.withKeys(r, metrics)).orElseGet(() -> Authorizer.off(metrics)),
                ring);
    }

    /** Reads the keys file, if any; one that does not read stops the start, naming the setting. */
    private static Optional<KeyRing> open(AuthSettings settings, Clock clock) {
        try {
            return settings.keysFile().map(f -> KeyRing.open(f, clock));
        } catch (KeysFileException e) {
            throw new StartupException(settings.keysLabel() + ": " + e.getMessage(), e);
        }
    }

    public Authorizer authorizer() {
        return authorizer;
    }

    /** The key ring, when a keys file is configured. */
    public Optional<KeyRing> keys() {
        return keys;
    }
}
