package dev.ourios.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeysFileCodecTest {
    private final KeysFileCodec codec = new KeysFileCodec();
    private static final String HASH = TokenHash.of("t").text();

    @Test
    void a_file_round_trips_and_never_holds_a_token() {
        KeysFile f = KeysFile.empty()
                .add(Keys.key("grafana", "secret-token-1", List.of("acme", "tënant-🙂"), Scope.QUERY))
                .add(Keys.key("collector", "secret-token-2", List.of("*"), Scope.INGEST, Scope.ADMIN))
                .add(Keys.key("old", "secret-token-3", List.of("acme"), Scope.QUERY)
                        .revokedAt(Instant.parse("2026-11-02T00:00:00Z")));
        byte[] bytes = codec.encode(f);
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertTrue(!text.contains("secret-token"), text);
        assertTrue(text.contains("\"tenants\" : \"*\""), text);
        assertEquals(f, codec.decode(bytes, "k.json"));
    }

    @Test
    void content_after_the_object_is_refused_naming_its_line() {
        String valid = "{\"keys\":[" + body("g", HASH) + "]}";
        assertEquals(1, codec.decode(valid.getBytes(StandardCharsets.UTF_8), "k.json").keys().size());
        assertEquals(1, codec.decode((valid + "\n \n").getBytes(StandardCharsets.UTF_8), "k.json").keys().size(),
                "trailing whitespace is fine");
        assertError(valid + "\n{\"keys\":[]}", "k.json: content after the JSON object (line 2)");
        assertError(valid + " garbage", "k.json: ");
        assertError(valid + "]", "k.json: ");
    }

    @Test
    void whitespace_only_is_no_keys() {
        assertEquals(KeysFile.empty(), codec.decode(" \n".getBytes(StandardCharsets.UTF_8), "k.json"));
    }

    @Test
    void errors_name_the_file_the_entry_and_the_field() {
        assertError("{\"keys\":[", "k.json: not valid JSON");
        assertError("[]", "k.json: expected a JSON object");
        assertError("{\"keys\":[],\"x\":1}", "k.json: unknown field 'x'");
        assertError("{\"keys\":{}}", "k.json: keys: expected a list");
        assertError(entry("\"name\":\"a b\""), "k.json: keys[0] 'a b': name: 'a b' is not a key name");
        assertError(entry("\"token_hash\":\"sha256:00\""), "k.json: keys[0] 'g': token_hash: expected 'sha256:'");
        assertError(entry("\"token_hash\":\"" + HASH.toUpperCase() + "\""), "keys[0] 'g': token_hash");
        assertError(entry("\"tenants\":[]"), "keys[0] 'g': tenants: expected a non-empty list");
        assertError(entry("\"tenants\":[\"a\",\"*\"]"), "keys[0] 'g': tenants: \"*\" inside a list");
        assertError(entry("\"tenants\":[\"a\",\"a\"]"), "keys[0] 'g': tenants: \"a\" appears more than once");
        assertError(entry("\"tenants\":[1]"), "keys[0] 'g': tenants: 1 is not a tenant id");
        assertError(entry("\"tenants\":\"acme\""), "keys[0] 'g': tenants: expected a non-empty list");
        assertError(entry("\"scopes\":[\"read\"]"), "keys[0] 'g': scopes: \"read\" is not a scope");
        assertError(entry("\"scopes\":[]"), "keys[0] 'g': scopes: expected a non-empty list");
        assertError(entry("\"created\":\"yesterday\""), "keys[0] 'g': created: 'yesterday' is not an RFC 3339");
        assertError(entry("\"revoked\":5"), "keys[0] 'g': revoked: expected an RFC 3339 time or null");
        assertError(entry("\"colour\":\"red\""), "keys[0] 'g': unknown field 'colour'");
        assertError("{\"keys\":[{\"name\":\"g\",\"tenants\":\"*\",\"scopes\":[\"query\"],\"created\":"
                + "\"2026-11-01T10:00:00Z\"}]}", "keys[0] 'g': token_hash: missing");
        String two = "{\"keys\":[" + body("g", HASH) + "," + body("g", TokenHash.of("u").text()) + "]}";
        assertError(two, "k.json: keys[1] 'g': name: 'g' appears more than once");
        String sameHash = "{\"keys\":[" + body("g", HASH) + "," + body("h", HASH) + "]}";
        assertError(sameHash, "k.json: keys[1] 'h': token_hash: the same hash appears in another key");
    }

    @Test
    void a_revoked_null_is_not_revoked() {
        String text = "{\"keys\":[" + body("g", HASH).replace("}", ",\"revoked\":null}") + "]}";
        KeysFile f = codec.decode(text.getBytes(StandardCharsets.UTF_8), "k.json");
        assertTrue(!f.keys().get(0).isRevoked());
    }

    private void assertError(String text, String expected) {
        KeysFileException e = assertThrows(KeysFileException.class,
                () -> codec.decode(text.getBytes(StandardCharsets.UTF_8), "k.json"), text);
        assertTrue(e.getMessage().contains(expected), e.getMessage() + "\n does not contain: " + expected);
        assertTrue(!e.getMessage().contains("\n") && !e.getMessage().contains("Source:"), e.getMessage());
    }

    /** One entry named g, with {@code override} replacing the field of the same name. */
    private static String entry(String override) {
        String field = override.substring(1, override.indexOf('"', 1));
        String b = body("g", HASH);
        String replaced = b.replaceFirst("\"" + field + "\":(\"[^\"]*\"|\\[[^\\]]*\\])", java.util.regex.Matcher
                .quoteReplacement(override));
        if (replaced.equals(b)) {
            replaced = b.replace("}", "," + override + "}");
        }
        return "{\"keys\":[" + replaced + "]}";
    }

    private static String body(String name, String hash) {
        return "{\"name\":\"" + name + "\",\"token_hash\":\"" + hash + "\",\"tenants\":[\"acme\"],"
                + "\"scopes\":[\"query\"],\"created\":\"2026-11-01T10:00:00Z\"}";
    }
}
