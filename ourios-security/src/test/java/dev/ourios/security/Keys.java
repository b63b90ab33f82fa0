package dev.ourios.security;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

/** Keys for tests: a key whose token is the given text. */
final class Keys {
    static final Instant CREATED = Instant.parse("2026-11-01T10:00:00Z");

    private Keys() {
    }

    static ApiKey key(String name, String token, List<String> tenants, Scope... scopes) {
        TenantGrant grant = tenants.equals(List.of("*")) ? TenantGrant.every() : TenantGrant.of(tenants);
        return new ApiKey(name, TokenHash.of(token), grant, EnumSet.copyOf(List.of(scopes)), CREATED,
                Optional.empty());
    }
}
