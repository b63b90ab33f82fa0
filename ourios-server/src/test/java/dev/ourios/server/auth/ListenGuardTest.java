package dev.ourios.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.server.StartupException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ListenGuardTest {
    private static ListenGuard.Listener at(String host) {
        return new ListenGuard.Listener("http.listen", InetSocketAddress.createUnresolved(host, 4319));
    }

    @Test
    void loopback_addresses_need_no_keys() {
        for (String host : List.of("127.0.0.1", "127.1.2.3", "::1", "localhost")) {
            assertEquals(Optional.empty(), ListenGuard.check(List.of(at(host)), Optional.empty(), false), host);
        }
    }

    @Test
    void any_other_address_needs_keys_or_the_explicit_flag() {
        for (String host : List.of("0.0.0.0", "::", "192.0.2.10", "no-such-host.invalid")) {
            StartupException e = assertThrows(StartupException.class,
                    () -> ListenGuard.check(List.of(at("127.0.0.1"), at(host)), Optional.empty(), false), host);
            assertTrue(e.getMessage().startsWith("http.listen: " + host + ":4319 is not a loopback address"),
                    e.getMessage());
            assertEquals(Optional.empty(), ListenGuard.check(List.of(at(host)), Optional.of("auth.keys_file k"),
                    false));
            Optional<String> warning = ListenGuard.check(List.of(at(host)), Optional.empty(), true);
            assertTrue(warning.orElseThrow().contains("authorization is off"), warning.toString());
        }
    }

    @Test
    void the_flag_warns_on_loopback_too_and_contradicts_a_keys_file() {
        assertTrue(ListenGuard.check(List.of(at("127.0.0.1")), Optional.empty(), true).isPresent());
        assertThrows(StartupException.class, () -> ListenGuard.check(List.of(at("0.0.0.0")),
                Optional.of("auth.keys_file k"), true));
    }
}
