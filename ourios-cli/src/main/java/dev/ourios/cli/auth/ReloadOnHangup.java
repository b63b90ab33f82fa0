package dev.ourios.cli.auth;

import dev.ourios.security.KeyRing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * SIGHUP re-reads the keys file at once ({@link KeyRing#reload()}), for operators who do not want to wait for the
 * periodic check or who edit the file in place. The JDK has no public signal API; {@code sun.misc.Signal} is the
 * supported way to catch one (module jdk.unsupported).
 */
public final class ReloadOnHangup {
    private static final Logger LOG = LoggerFactory.getLogger(ReloadOnHangup.class);

    private ReloadOnHangup() {
    }

    /** Installs the handler; false (logged) where the platform has no SIGHUP. */
    public static boolean install(KeyRing ring) {
        try {
            Signal.handle(new Signal("HUP"), sig -> {
                LOG.info("SIGHUP: re-reading {}", ring.file());
                ring.reload();
            });
            return true;
        } catch (IllegalArgumentException e) {
            LOG.warn("no SIGHUP on this platform ({}); the keys file is still re-read when it changes",
                    e.getMessage());
            return false;
        }
    }
}
