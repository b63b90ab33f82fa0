package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.security.Authorizer;
import dev.ourios.security.Decision;
import dev.ourios.security.DenialReason;
import dev.ourios.security.KeyRing;
import dev.ourios.security.KeysFileCodec;
import dev.ourios.security.KeysFileStore;
import dev.ourios.security.Scope;
import dev.ourios.security.TenantHeader;
import dev.ourios.testkit.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ourios keys} through the real CLI in child JVMs; this test process then authenticates against the file. */
class KeysCliTest {
    private static final Pattern TOKEN = Pattern.compile("ourios_[A-Za-z0-9_-]{43}");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void a_new_key_prints_only_its_token_and_another_process_authenticates_with_it() throws Exception {
        Path keys = dir.resolve("keys.json");
        var r = CliProcess.run(dir, "keys", "new", "--keys-file", keys.toString(), "--name", "grafana",
                "--tenant", "acme", "--tenant", "tënant-🙂", "--scope", "query");
        assertEquals(0, r.exit(), r.err());
        assertEquals(1, r.outLines().size(), r.out());
        String token = r.outLines().get(0);
        assertTrue(TOKEN.matcher(token).matches(), token);
        assertTrue(r.err().contains("created key 'grafana'"), r.err());
        String file = Files.readString(keys);
        assertFalse(file.contains(token) || file.contains(token.substring(7)), "the token is not stored");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys)));

        Authorizer auth = Authorizer.withKeys(KeyRing.open(keys, Clock.systemUTC()), reason -> { });
        Decision d = auth.authorize(List.of("Bearer " + token), List.of(TenantHeader.encode("tënant-🙂")),
                Scope.QUERY);
        assertEquals(new Decision.Allowed("tënant-🙂", Optional.of("grafana")), d);
        Decision other = auth.authorize(List.of("Bearer " + token), List.of("globex"), Scope.QUERY);
        assertEquals(DenialReason.TENANT, assertInstanceOf(Decision.Denied.class, other).reason());
        Decision ingest = auth.authorize(List.of("Bearer " + token), List.of("acme"), Scope.INGEST);
        assertEquals(DenialReason.SCOPE, assertInstanceOf(Decision.Denied.class, ingest).reason());

        // Revoked through the CLI: the running key ring refuses the token once it re-reads the file.
        var revoke = CliProcess.run(dir, "keys", "revoke", "--keys-file", keys.toString(), "--name", "grafana");
        assertEquals(0, revoke.exit(), revoke.err());
        assertEquals("revoked key 'grafana'", revoke.out().strip());
        KeyRing ring = KeyRing.open(keys, Clock.systemUTC());
        Decision revoked = Authorizer.withKeys(ring, reason -> { }).authorize(List.of("Bearer " + token),
                List.of("acme"), Scope.QUERY);
        assertEquals(DenialReason.REVOKED_KEY, assertInstanceOf(Decision.Denied.class, revoked).reason());
        var again = CliProcess.run(dir, "keys", "revoke", "--keys-file", keys.toString(), "--name", "grafana");
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().startsWith("key 'grafana' was already revoked at "), again.out());
    }

    @Test
    void list_shows_names_tenants_scopes_and_times_never_hashes() throws Exception {
        Path keys = dir.resolve("keys.json");
        Map<String, String> env = Map.of("OURIOS_AUTH_KEYS_FILE", keys.toString());
        assertEquals(0, CliProcess.run(dir, env, "keys", "new", "--name", "collector", "--tenant", "*",
                "--scope", "ingest").exit());
        Path cfg = dir.resolve("ourios.yaml");
        Files.writeString(cfg, "auth:\n  keys_file: " + keys + "\n");
        var viaConfig = CliProcess.run(dir, "keys", "new", "--config", cfg.toString(), "--name", "ops",
                "--tenant", "acme", "--scope", "admin", "--scope", "query");
        assertEquals(0, viaConfig.exit(), viaConfig.err());

        var table = CliProcess.run(dir, env, "keys", "list");
        assertEquals(0, table.exit(), table.err());
        assertEquals(3, table.outLines().size(), table.out());
        assertTrue(table.outLines().get(1).matches("collector +active +\\* +ingest +\\S+Z"), table.out());
        assertTrue(table.outLines().get(2).matches("ops +active +acme +query,admin +\\S+Z"), table.out());
        var json = CliProcess.run(dir, env, "keys", "list", "--json");
        assertEquals(0, json.exit(), json.err());
        JsonNode ops = JSON.readTree(json.outLines().get(1));
        assertEquals("ops", ops.get("name").asText());
        assertEquals("[\"acme\"]", ops.get("tenants").toString());
        assertEquals("[\"query\",\"admin\"]", ops.get("scopes").toString());
        assertTrue(ops.get("revoked").isNull());
        assertEquals(Set.of("name", "tenants", "scopes", "created", "revoked"), fieldNames(ops));
        assertEquals("\"*\"", JSON.readTree(json.outLines().get(0)).get("tenants").toString());
        assertFalse(table.out().contains("sha256") || json.out().contains("sha256"));
    }

    @Test
    void bad_input_exits_2_with_one_line_and_leaves_the_file_alone() throws Exception {
        Path keys = dir.resolve("keys.json");
        String k = keys.toString();
        assertEquals(0, CliProcess.run(dir, "keys", "new", "--keys-file", k, "--name", "a", "--tenant", "acme",
                "--scope", "query").exit());
        byte[] before = Files.readAllBytes(keys);
        assertRefused(List.of("keys", "new", "--keys-file", k, "--name", "a", "--tenant", "acme", "--scope", "query"),
                "a key named 'a' already exists");
        assertRefused(List.of("keys", "new", "--keys-file", k, "--name", "b", "--tenant", "acme", "--scope", "read"),
                "--scope: 'read' is not a scope");
        assertRefused(List.of("keys", "new", "--keys-file", k, "--name", "b", "--tenant", "*", "--tenant", "acme",
                "--scope", "query"), "--tenant: '*' (every tenant) cannot be combined");
        assertRefused(List.of("keys", "new", "--keys-file", k, "--name", "no spaces", "--tenant", "acme",
                "--scope", "query"), "--name: 'no spaces' is not a key name");
        assertRefused(List.of("keys", "revoke", "--keys-file", k, "--name", "zzz"), "no key named 'zzz'");
        assertRefused(List.of("keys", "new", "--name", "b", "--tenant", "acme", "--scope", "query"), "no keys file");
        assertEquals(new String(before), Files.readString(keys));

        Files.writeString(keys, "{\"keys\":[{\"name\":\"a\"}]}");
        assertRefused(List.of("keys", "new", "--keys-file", k, "--name", "b", "--tenant", "acme", "--scope", "query"),
                k + ": keys[0] 'a': token_hash: missing");
        assertRefused(List.of("keys", "list", "--keys-file", k), k + ": keys[0] 'a': token_hash: missing");
        assertEquals("{\"keys\":[{\"name\":\"a\"}]}", Files.readString(keys));
    }

    /**
     * Two {@code keys new} processes and this process add keys to one file at the same time; the file lock makes
     * every addition land (without it, one writer's rename would drop what another added meanwhile).
     */
    @Test
    void concurrent_additions_all_land() throws Exception {
        Path keys = dir.resolve("keys.json");
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (String name : List.of("child-1", "child-2")) {
                children.add(ChildJvm.main(Main.class).name("keys-" + name).heap("256m").workDir(dir)
                        .removeEnv(k -> k.startsWith("OURIOS_")).args("keys", "new", "--keys-file", keys.toString(),
                                "--name", name, "--tenant", "acme", "--scope", "query").start());
            }
            KeysFileStore mine = new KeysFileStore(keys, new KeysFileCodec());
            Set<String> expected = new TreeSet<>(Set.of("child-1", "child-2"));
            // Keep writing while the children start, read and write, so their windows overlap ours.
            for (int i = 0; (children.stream().anyMatch(ChildJvm::isAlive) && i < 500) || i < 5; i++) {
                String name = "parent-" + i;
                mine.update(f -> f.add(new dev.ourios.security.ApiKey(name,
                        dev.ourios.security.TokenHash.of("token-" + name), dev.ourios.security.TenantGrant.of(
                        List.of("acme")), Set.of(Scope.QUERY), java.time.Instant.EPOCH, Optional.empty())));
                expected.add(name);
            }
            for (ChildJvm c : children) {
                assertEquals(0, c.waitFor(Duration.ofMinutes(2)), c.stderr());
                assertTrue(TOKEN.matcher(c.stdout().strip()).matches(), c.stdout());
            }
            Set<String> names = new TreeSet<>();
            mine.read().keys().forEach(key -> names.add(key.name()));
            assertEquals(expected, names);
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    private void assertRefused(List<String> args, String message) throws Exception {
        var r = CliProcess.run(dir, args.toArray(String[]::new));
        assertEquals(2, r.exit(), args + ": " + r.err());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.errLines().get(0).startsWith("ourios: ") && r.err().contains(message), r.err());
        assertEquals("", r.out());
    }

    private static Set<String> fieldNames(JsonNode n) {
        Set<String> s = new TreeSet<>();
        n.fieldNames().forEachRemaining(s::add);
        return s;
    }
}
