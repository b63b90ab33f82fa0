package dev.ourios.server.auth;

import dev.ourios.server.StartupException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether {@code serve} may listen where it is told to. Without API keys every request reads and writes any
 * tenant, which is safe only where nobody else can connect: so without a keys file every address must be
 * loopback, unless {@code --insecure-no-auth} says otherwise explicitly. A host name counts as loopback only if
 * every address it resolves to is; one that does not resolve does not count.
 */
public final class ListenGuard {
    /**
     * One address {@code serve} binds.
     *
     * @param setting the configuration key that sets it, for messages
     */
    public record Listener(String setting, InetSocketAddress address) {
        public Listener {
            Objects.requireNonNull(setting, "setting");
            Objects.requireNonNull(address, "address");
        }

        String text() {
            return address.getHostString() + ":" + address.getPort();
        }
    }

    private ListenGuard() {
    }

    /**
     * @param listeners      the addresses to bind
     * @param keysFile       how the keys file is named in messages, when one is configured
     * @param insecureNoAuth {@code --insecure-no-auth} was given
     * @return the warning to log at start when authorization is off by request
     * @throws StartupException when a non-loopback address has no keys and no {@code --insecure-no-auth}, or when
     *                        both a keys file and {@code --insecure-no-auth} are given
     */
    public static Optional<String> check(List<Listener> listeners, Optional<String> keysFile, boolean insecureNoAuth) {
        if (insecureNoAuth) {
            if (keysFile.isPresent()) {
                throw new StartupException("--insecure-no-auth contradicts " + keysFile.get()
                        + ": give one or the other");
            }
            StringBuilder where = new StringBuilder();
            for (Listener l : listeners) {
                where.append(where.length() == 0 ? "" : ", ").append(l.setting()).append(' ').append(l.text());
            }
            return Optional.of("--insecure-no-auth: authorization is off; anyone who reaches " + where
                    + " reads and writes every tenant");
        }
        if (keysFile.isPresent()) {
            return Optional.empty();
        }
        for (Listener l : listeners) {
            if (!isLoopback(l.address().getHostString())) {
                throw new StartupException(l.setting() + ": " + l.text() + " is not a loopback address and no API keys "
                        + "are configured; set auth.keys_file (see 'ourios keys new'), or give --insecure-no-auth "
                        + "to let anyone who reaches it read and write every tenant");
            }
        }
        return Optional.empty();
    }

    static boolean isLoopback(String host) {
        try {
            InetAddress[] all = InetAddress.getAllByName(host);
            for (InetAddress a : all) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return all.length > 0;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
