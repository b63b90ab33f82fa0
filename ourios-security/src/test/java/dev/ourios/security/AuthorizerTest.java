package dev.ourios.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The decision matrix: each kind of key and header against the status, the tenant and the reason. */
class AuthorizerTest {
    private static final String EMOJI_TENANT = "tënant-🙂";
    @TempDir
    Path dir;
    private final Map<DenialReason, Integer> denials = new EnumMap<>(DenialReason.class);
    private Authorizer auth;

    @BeforeEach
    void keys() {
        KeysFileStore store = new KeysFileStore(dir.resolve("keys.json"), new KeysFileCodec());
        store.update(f -> f
                .add(Keys.key("reader-acme", "tok-reader-acme", List.of("acme"), Scope.QUERY))
                .add(Keys.key("reader-globex", "tok-reader-globex", List.of("globex"), Scope.QUERY))
                .add(Keys.key("ingest-acme", "tok-ingest-acme", List.of("acme"), Scope.INGEST))
                .add(Keys.key("multi", "tok-multi", List.of("acme", "globex", EMOJI_TENANT), Scope.QUERY))
                .add(Keys.key("every", "tok-every", List.of("*"), Scope.QUERY, Scope.INGEST))
                .add(Keys.key("admin-acme", "tok-admin-acme", List.of("acme"), Scope.ADMIN))
                .add(Keys.key("revoked", "tok-revoked", List.of("acme"), Scope.QUERY)
                        .revokedAt(Instant.parse("2026-11-02T00:00:00Z"))));
        auth = Authorizer.withKeys(KeyRing.open(store.file(), new ManualClock(Instant.EPOCH)),
                r -> denials.merge(r, 1, Integer::sum));
    }

    record Case(String what, List<String> authorization, List<String> tenant, Scope scope, int status,
            String tenantOrReason) {
    }

    private static Case allowed(String what, String token, List<String> tenant, Scope scope, String expected) {
        return new Case(what, token == null ? List.of() : List.of("Bearer " + token), tenant, scope, 200, expected);
    }

    private static Case denied(String what, List<String> authorization, List<String> tenant, Scope scope,
            DenialReason reason) {
        return new Case(what, authorization, tenant, scope, reason.status(), reason.wireName());
    }

    private static List<String> bearer(String token) {
        return List.of("Bearer " + token);
    }

    @Test
    void the_grant_of_a_key_names_its_tenants_and_nothing_for_a_bad_or_revoked_one() {
        assertEquals(Optional.of(TenantGrant.of(List.of("acme", "globex", EMOJI_TENANT))),
                auth.grantOf(bearer("tok-multi")));
        assertEquals(Optional.of(TenantGrant.every()), auth.grantOf(bearer("tok-every")));
        assertEquals(Optional.of(TenantGrant.of(List.of("acme"))), auth.grantOf(List.of("bearer  tok-reader-acme ")));
        assertEquals(Optional.empty(), auth.grantOf(bearer("tok-revoked")));
        assertEquals(Optional.empty(), auth.grantOf(bearer("tok-nobody")));
        assertEquals(Optional.empty(), auth.grantOf(List.of()));
        assertEquals(Optional.empty(), auth.grantOf(List.of("Basic dXNlcjpwYXNz")));
        assertEquals(Optional.empty(), auth.grantOf(List.of("Bearer tok-multi", "Bearer tok-every")));
        assertEquals(Optional.of(TenantGrant.every()), Authorizer.off(r -> { }).grantOf(List.of()),
                "without keys every tenant may be read");
        assertTrue(denials.isEmpty(), "asking for a grant is not a request: no denial is counted");
    }

    @Test
    void the_decision_matrix() {
        List<String> acme = List.of("acme");
        List<Case> cases = new ArrayList<>(List.of(
                denied("no key", List.of(), acme, Scope.QUERY, DenialReason.MISSING_KEY),
                denied("basic credentials", List.of("Basic dXNlcjpwYXNz"), acme, Scope.QUERY, DenialReason.NOT_BEARER),
                denied("empty bearer", List.of("Bearer "), acme, Scope.QUERY, DenialReason.NOT_BEARER),
                denied("unknown key", bearer("tok-nobody"), acme, Scope.QUERY, DenialReason.UNKNOWN_KEY),
                denied("a key's hash as the token", bearer(TokenHash.of("tok-reader-acme").text()), acme,
                        Scope.QUERY, DenialReason.UNKNOWN_KEY),
                denied("revoked key", bearer("tok-revoked"), acme, Scope.QUERY, DenialReason.REVOKED_KEY),
                denied("two Authorization headers", List.of("Bearer tok-reader-acme", "Bearer tok-reader-acme"), acme,
                        Scope.QUERY, DenialReason.BAD_HEADER),
                denied("other tenant's key", bearer("tok-reader-globex"), acme, Scope.QUERY, DenialReason.TENANT),
                denied("wrong scope (ingest key, query endpoint)", bearer("tok-ingest-acme"), acme, Scope.QUERY,
                        DenialReason.SCOPE),
                denied("wrong scope (query key, ingest endpoint)", bearer("tok-reader-acme"), acme, Scope.INGEST,
                        DenialReason.SCOPE),
                denied("two tenant headers", bearer("tok-reader-acme"), List.of("acme", "acme"), Scope.QUERY,
                        DenialReason.BAD_HEADER),
                denied("two tenant headers joined by a proxy", bearer("tok-every"), List.of("acme, globex"),
                        Scope.QUERY, DenialReason.BAD_HEADER),
                denied("malformed tenant header", bearer("tok-reader-acme"), List.of("ac%2"), Scope.QUERY,
                        DenialReason.BAD_HEADER),
                denied("raw non-ASCII tenant header", bearer("tok-multi"), List.of("tÃ«nant"), Scope.QUERY,
                        DenialReason.BAD_HEADER),
                denied("several-tenant key without a header", bearer("tok-multi"), List.of(), Scope.QUERY,
                        DenialReason.BAD_HEADER),
                denied("several-tenant key, a tenant it lacks", bearer("tok-multi"), List.of("initech"), Scope.QUERY,
                        DenialReason.TENANT),
                denied("admin key, other tenant", bearer("tok-admin-acme"), List.of("globex"), Scope.QUERY,
                        DenialReason.TENANT),
                allowed("one-tenant key without a header", "tok-reader-acme", List.of(), Scope.QUERY, "acme"),
                allowed("one-tenant key with its tenant", "tok-reader-acme", acme, Scope.QUERY, "acme"),
                allowed("ingest key on ingest", "tok-ingest-acme", List.of(), Scope.INGEST, "acme"),
                allowed("admin key on query", "tok-admin-acme", acme, Scope.QUERY, "acme"),
                allowed("admin key on ingest", "tok-admin-acme", List.of(), Scope.INGEST, "acme"),
                allowed("* key without a header", "tok-every", List.of(), Scope.QUERY, "default"),
                allowed("* key, any tenant", "tok-every", List.of("globex"), Scope.INGEST, "globex"),
                allowed("* key, percent-encoded tenant", "tok-every", List.of(TenantHeader.encode(EMOJI_TENANT)),
                        Scope.QUERY, EMOJI_TENANT),
                allowed("several-tenant key, one of them", "tok-multi", List.of("t%c3%abnant-%F0%9F%99%82"),
                        Scope.QUERY, EMOJI_TENANT),
                new Case("lower-case scheme", List.of("bearer tok-reader-acme"), acme, Scope.QUERY, 200, "acme")));

        Map<DenialReason, Integer> expected = new EnumMap<>(DenialReason.class);
        for (Case c : cases) {
            Decision d = auth.authorize(c.authorization(), c.tenant(), c.scope());
            if (c.status() == 200) {
                Decision.Allowed a = assertInstanceOf(Decision.Allowed.class, d, c.what());
                assertEquals(c.tenantOrReason(), a.tenant(), c.what());
                assertTrue(a.keyName().isPresent(), c.what());
            } else {
                Decision.Denied n = assertInstanceOf(Decision.Denied.class, d, c.what());
                assertEquals(c.status(), n.status(), c.what() + ": " + n.message());
                assertEquals(c.tenantOrReason(), n.reason().wireName(), c.what() + ": " + n.message());
                assertFalse(n.message().contains("tok-"), c.what() + ": the token must not be echoed: "
                        + n.message());
                assertEquals(n.status() == 401, n.challenge().isPresent(), c.what());
                expected.merge(n.reason(), 1, Integer::sum);
            }
        }
        assertEquals(expected, denials, "every denial counted once, by reason");
    }

    /**
     * Every endpoint that needs a key, against every kind of bad credential, and the keys that fit it: the status
     * follows from the credential, never from which endpoint it was sent to.
     */
    @Test
    void every_endpoint_against_every_kind_of_bad_key() {
        assertEquals(java.util.Set.of("/v1/query", "/v1/files", "/v1/logs", "/v1/delete", "/v1/stats", "/v1/fields",
                EndpointScopes.FIELD_VALUES, "/v1/tail", "/v1/tenants", "/v1/status"), EndpointScopes.all().keySet());
        assertEquals(Scope.QUERY, EndpointScopes.of("/v1/tenants").orElseThrow());
        assertEquals(Scope.ADMIN, EndpointScopes.of("/v1/status").orElseThrow());
        assertEquals(Scope.QUERY, EndpointScopes.of("/v1/fields/attributes.http.route/values").orElseThrow());
        assertEquals(Scope.ADMIN, EndpointScopes.of("/v1/delete").orElseThrow());
        assertTrue(EndpointScopes.of("/healthz").isEmpty() && EndpointScopes.of("/readyz").isEmpty());
        for (Map.Entry<String, Scope> e : EndpointScopes.all().entrySet()) {
            Scope scope = e.getValue();
            String wrongScopeToken = scope == Scope.QUERY ? "tok-ingest-acme" : "tok-reader-acme";
            String rightToken = switch (scope) {
                case QUERY -> "tok-reader-acme";
                case INGEST -> "tok-ingest-acme";
                case ADMIN -> "tok-admin-acme";
            };
            Map<String, Integer> expected = new java.util.LinkedHashMap<>();
            expected.put("no key", status(List.of(), scope));
            expected.put("wrong key", status(bearer("tok-wrong"), scope));
            expected.put("other tenant's key", status(bearer("tok-reader-globex"), scope));
            expected.put("wrong scope", status(bearer(wrongScopeToken), scope));
            expected.put("revoked key", status(bearer("tok-revoked"), scope));
            expected.put("right key", status(bearer(rightToken), scope));
            expected.put("admin key", status(bearer("tok-admin-acme"), scope));
            assertEquals(Map.of("no key", 401, "wrong key", 401, "other tenant's key", 403, "wrong scope", 403,
                    "revoked key", 401, "right key", 200, "admin key", 200), expected, e.getKey());
        }
    }

    /** The status of a request for tenant acme. */
    private int status(List<String> authorization, Scope scope) {
        Decision d = auth.authorize(authorization, List.of("acme"), scope);
        return d instanceof Decision.Denied n ? n.status() : 200;
    }

    @Test
    void a_refusal_is_a_json_error_naming_the_header() {
        Decision.Denied d = (Decision.Denied) auth.authorize(bearer("tok-reader-globex"), List.of("acme"),
                Scope.QUERY);
        assertEquals("{\"error\":{\"status\":403,\"field\":\"X-Ourios-Tenant\",\"message\":\"API key "
                + "'reader-globex' may not use tenant 'acme'\"}}", d.errorJson());
        assertEquals(Optional.of("reader-globex"), d.keyName());
    }

    @Test
    void without_keys_every_request_is_allowed_but_tenant_headers_are_still_checked() {
        Authorizer off = Authorizer.off(r -> denials.merge(r, 1, Integer::sum));
        assertFalse(off.enabled());
        assertEquals(new Decision.Allowed("default", Optional.empty()),
                off.authorize(List.of(), List.of(), Scope.QUERY));
        assertEquals(new Decision.Allowed("b/c", Optional.empty()),
                off.authorize(List.of("Bearer whatever"), List.of("b%2Fc"), Scope.INGEST));
        assertEquals(new Decision.Allowed(EMOJI_TENANT, Optional.empty()),
                off.authorize(List.of(), List.of(TenantHeader.encode(EMOJI_TENANT)), Scope.QUERY));
        Decision two = off.authorize(List.of(), List.of("acme", "globex"), Scope.QUERY);
        assertEquals(400, ((Decision.Denied) two).status());
        Decision bad = off.authorize(List.of(), List.of("%zz"), Scope.QUERY);
        assertEquals(400, ((Decision.Denied) bad).status());
        assertEquals("X-Ourios-Tenant", ((Decision.Denied) bad).field());
        assertEquals(Map.of(DenialReason.BAD_HEADER, 2), denials);
    }
}
