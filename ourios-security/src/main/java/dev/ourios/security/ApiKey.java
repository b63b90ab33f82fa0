package dev.ourios.security;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One entry of the keys file. The token itself is never stored, only its hash.
 *
 * @param name      unique, {@code [A-Za-z0-9][A-Za-z0-9._-]{0,63}}: it appears in logs, so it is kept plain
 * @param tokenHash the SHA-256 of the token
 * @param tenants   the tenants the key may use
 * @param scopes    what it may do (at least one)
 * @param created   when it was created
 * @param revoked   when it was revoked; a revoked key is refused like an unknown one
 */
public record ApiKey(String name, TokenHash tokenHash, TenantGrant tenants, Set<Scope> scopes, Instant created,
        Optional<Instant> revoked) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    public ApiKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tokenHash, "tokenHash");
        Objects.requireNonNull(tenants, "tenants");
        scopes = Set.copyOf(scopes);
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(revoked, "revoked");
        if (!validName(name)) {
            throw new IllegalArgumentException(nameRule(name));
        }
        if (scopes.isEmpty()) {
            throw new IllegalArgumentException("key '" + name + "' has no scope");
        }
    }

    public static boolean validName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /** The message for a name that breaks the rule. */
    public static String nameRule(String name) {
        return "'" + name + "' is not a key name (1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit)";
    }

    public boolean isRevoked() {
        return revoked.isPresent();
    }

    /** True if the key's scopes allow an endpoint that needs {@code needed}. */
    public boolean grants(Scope needed) {
        return scopes.stream().anyMatch(s -> s.grants(needed));
    }

    public ApiKey revokedAt(Instant at) {
        return new ApiKey(name, tokenHash, tenants, scopes, created, Optional.of(at));
    }
}
