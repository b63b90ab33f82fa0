package dev.ourios.security;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The tenants a key may use: every tenant ({@code "*"} in the keys file) or a fixed list.
 *
 * @param any   every tenant
 * @param names the tenants, in file order (empty when {@code any})
 */
public record TenantGrant(boolean any, List<String> names) {
    public static final String ANY = "*";

    public TenantGrant {
        names = List.copyOf(Objects.requireNonNull(names, "names"));
        if (any != names.isEmpty()) {
            throw new IllegalArgumentException("a grant is either every tenant or a non-empty list");
        }
    }

    public static TenantGrant every() {
        return new TenantGrant(true, List.of());
    }

    public static TenantGrant of(List<String> names) {
        return new TenantGrant(false, names);
    }

    public boolean allows(String tenant) {
        return any || names.contains(tenant);
    }

    /** The one tenant of a one-tenant key: such a key needs no tenant header. */
    public Optional<String> sole() {
        return !any && names.size() == 1 ? Optional.of(names.get(0)) : Optional.empty();
    }

    @Override
    public String toString() {
        return any ? ANY : String.join(",", names);
    }
}
