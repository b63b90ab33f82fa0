package dev.ourios.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyRingTest {
    @TempDir
    Path dir;
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-01T10:00:00Z"));

    @Test
    void a_key_added_to_the_file_counts_once_the_check_interval_has_passed() {
        KeysFileStore store = new KeysFileStore(dir.resolve("keys.json"), new KeysFileCodec());
        store.update(f -> f.add(Keys.key("a", "token-a", List.of("acme"), Scope.QUERY)));
        KeyRing ring = KeyRing.open(store.file(), clock);
        assertTrue(ring.current().matching(TokenHash.of("token-a")).isPresent());

        store.update(f -> f.add(Keys.key("b", "token-b", List.of("acme"), Scope.QUERY)));
        assertTrue(ring.current().matching(TokenHash.of("token-b")).isEmpty(), "not looked at within the interval");
        clock.advance(KeyRing.CHECK_INTERVAL);
        assertTrue(ring.current().matching(TokenHash.of("token-b")).isPresent(), "re-read after the interval");
    }

    @Test
    void a_revoked_key_is_refused_by_a_running_authorizer() {
        KeysFileStore store = new KeysFileStore(dir.resolve("keys.json"), new KeysFileCodec());
        store.update(f -> f.add(Keys.key("a", "token-a", List.of("acme"), Scope.QUERY)));
        Authorizer auth = Authorizer.withKeys(KeyRing.open(store.file(), clock), r -> { });
        List<String> bearer = List.of("Bearer token-a");
        assertEquals(new Decision.Allowed("acme", java.util.Optional.of("a")),
                auth.authorize(bearer, List.of(), Scope.QUERY));

        store.update(f -> f.replace(f.named("a").orElseThrow().revokedAt(clock.instant())));
        clock.advance(Duration.ofMillis(1500));
        Decision d = auth.authorize(bearer, List.of(), Scope.QUERY);
        assertEquals(DenialReason.REVOKED_KEY, ((Decision.Denied) d).reason());
        assertEquals(401, ((Decision.Denied) d).status());
    }

    @Test
    void a_broken_edit_keeps_the_last_good_keys_until_the_file_is_fixed() throws Exception {
        Path file = dir.resolve("keys.json");
        KeysFileStore store = new KeysFileStore(file, new KeysFileCodec());
        store.update(f -> f.add(Keys.key("a", "token-a", List.of("acme"), Scope.QUERY)));
        KeyRing ring = KeyRing.open(file, clock);
        Files.writeString(file, "{\"keys\":[{\"name\":\"a\"");
        clock.advance(KeyRing.CHECK_INTERVAL);
        assertTrue(ring.current().matching(TokenHash.of("token-a")).isPresent(), "last good keys kept");
        assertFalse(ring.reload(), "a forced reload of the broken file fails");
        assertTrue(ring.current().matching(TokenHash.of("token-a")).isPresent());

        Files.delete(file);
        clock.advance(KeyRing.CHECK_INTERVAL);
        assertTrue(ring.current().matching(TokenHash.of("token-a")).isPresent(), "a deleted file keeps them too");

        store.update(f -> f.add(Keys.key("b", "token-b", List.of("acme"), Scope.QUERY)));
        clock.advance(KeyRing.CHECK_INTERVAL);
        KeysFile now = ring.current();
        assertTrue(now.matching(TokenHash.of("token-b")).isPresent(), "the fixed file counts");
        assertTrue(now.matching(TokenHash.of("token-a")).isEmpty(), "the fixed file replaces the old keys");
    }

    @Test
    void reload_reads_the_file_at_once() {
        KeysFileStore store = new KeysFileStore(dir.resolve("keys.json"), new KeysFileCodec());
        store.update(f -> f.add(Keys.key("a", "token-a", List.of("acme"), Scope.QUERY)));
        KeyRing ring = KeyRing.open(store.file(), clock);
        store.update(f -> f.add(Keys.key("b", "token-b", List.of("acme"), Scope.QUERY)));
        assertTrue(ring.reload());
        assertTrue(ring.current().matching(TokenHash.of("token-b")).isPresent());
    }

    @Test
    void opening_needs_a_file_that_reads() throws Exception {
        Path missing = dir.resolve("none.json");
        KeysFileException e = assertThrows(KeysFileException.class, () -> KeyRing.open(missing, clock));
        assertTrue(e.getMessage().startsWith(missing + ": no such keys file"), e.getMessage());
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"keys\":[{}]}");
        e = assertThrows(KeysFileException.class, () -> KeyRing.open(bad, clock));
        assertTrue(e.getMessage().startsWith(bad + ": keys[0]: name: missing"), e.getMessage());
    }
}
