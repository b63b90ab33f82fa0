package dev.ourios.server.auth;

import dev.ourios.security.ApiKey;
import dev.ourios.security.KeyRing;
import dev.ourios.security.KeysFile;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGHUP re-reads the keys file at once ({@link KeyRing#reload()}), for operators who do not want to wait for the
 * periodic check or who edit the file in place. The JDK has no public signal API; {@code sun.misc.Signal} is the
 * supported way to catch one (module jdk.unsupported).
 */
public final class ReloadOnHangup {
    private static final Logger LOG = LoggerFactory.getLogger(ReloadOnHangup.class);

    private ReloadOnHangup() {
    }

    /**
     * Installs the handler; false (logged) where the platform has no SIGHUP, or where the process was started with
     * SIGHUP ignored (as under {@code nohup}): the JVM then keeps it ignored and installs no handler.
     *
     * @param reloaded told after each successful re-read (a failed one is logged by the key ring)
     */
    public static boolean install(KeyRing ring, Consumer<String> reloaded) {
        try {
            SignalHandler before = Signal.handle(new Signal("HUP"), sig -> {
                if (ring.reload()) {
                    KeysFile k = ring.current();
                    reloaded.accept("SIGHUP: " + ring.file() + " re-read: " + k.keys().size() + " keys ("
                            + k.keys().stream().filter(ApiKey::isRevoked).count() + " revoked)");
                }
            });
            if (before == SignalHandler.SIG_IGN) {
                LOG.warn("SIGHUP is ignored by this process (it was started with SIGHUP ignored, as under nohup): "
                        + "a hangup does not re-read the keys file; {} is still re-read when it changes",
                        ring.file());
                return false;
            }
            return true;
        } catch (IllegalArgumentException e) {
            LOG.warn("no SIGHUP on this platform ({}); the keys file is still re-read when it changes",
                    e.getMessage());
            return false;
        }
    }
}
