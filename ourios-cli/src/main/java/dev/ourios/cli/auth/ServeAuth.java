package dev.ourios.cli.auth;

import dev.ourios.cli.config.ConfigKeys;
import dev.ourios.cli.config.OuriosConfig;
import dev.ourios.security.Authorizer;
import dev.ourios.security.KeyRing;
import io.opentelemetry.api.metrics.MeterProvider;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The authorization of one {@code serve} process, set up before anything listens: the listen-address rule, the keys
 * file read (a bad one stops the start with exit 2), SIGHUP wired to a reload, and the {@link Authorizer} both HTTP
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
     * @param warn     receives the {@code --insecure-no-auth} warning, at every start it is given
     * @param reloaded receives a notice after each re-read on SIGHUP
     */
    public static ServeAuth start(OuriosConfig cfg, boolean insecureNoAuth, MeterProvider meters, Clock clock,
            Consumer<String> warn, Consumer<String> reloaded) {
        List<ListenGuard.Listener> listeners = new ArrayList<>();
        listeners.add(new ListenGuard.Listener(ConfigKeys.HTTP_LISTEN, cfg.http().listen()));
        cfg.ingest().settings().ifPresent(s -> listeners.add(new ListenGuard.Listener(ConfigKeys.INGEST_LISTEN,
                s.listen())));
        Optional<String> keysLabel = cfg.auth().keysFile().map(f -> cfg.auth().label() + " " + f);
        ListenGuard.check(listeners, keysLabel, insecureNoAuth).ifPresent(warn);
        Optional<KeyRing> ring = cfg.auth().open(clock);
        AuthMetrics metrics = new AuthMetrics(meters);
        ring.ifPresent(r -> ReloadOnHangup.install(r, reloaded));
        return new ServeAuth(ring.map(r -> Authorizer.withKeys(r, metrics)).orElseGet(() -> Authorizer.off(metrics)),
                ring);
    }

    public Authorizer authorizer() {
        return authorizer;
    }

    /** The key ring, when a keys file is configured. */
    public Optional<KeyRing> keys() {
        return keys;
    }
}
