package dev.ourios.cli.keys;

import dev.ourios.security.ApiKey;
import dev.ourios.security.Scope;
import dev.ourios.security.TenantGrant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** How {@code ourios keys} shows a key: never its hash, never a token. */
final class KeyTable {
    private KeyTable() {
    }

    static String row(ApiKey k) {
        return String.format("%-24s %-8s %-24s %-20s %s", k.name(), k.isRevoked() ? "revoked" : "active",
                tenants(k.tenants()), scopes(k.scopes()), k.created()
                        + k.revoked().map(r -> " (revoked " + r + ")").orElse(""));
    }

    static String header() {
        return String.format("%-24s %-8s %-24s %-20s %s", "NAME", "STATUS", "TENANTS", "SCOPES", "CREATED");
    }

    static Map<String, Object> json(ApiKey k) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", k.name());
        m.put("tenants", k.tenants().any() ? TenantGrant.ANY : k.tenants().names());
        m.put("scopes", Stream.of(Scope.values()).filter(k.scopes()::contains).map(Scope::wireName).toList());
        m.put("created", k.created().toString());
        m.put("revoked", k.revoked().map(Object::toString).orElse(null));
        return m;
    }

    static String tenants(TenantGrant g) {
        return g.any() ? TenantGrant.ANY : g.names().stream().map(KeyTable::printable).collect(Collectors.joining(","));
    }

    static String scopes(Set<Scope> scopes) {
        return Stream.of(Scope.values()).filter(scopes::contains).map(Scope::wireName)
                .collect(Collectors.joining(","));
    }

    /** Control characters of a tenant id as \\uXXXX, so one key is one line of the table. */
    private static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        s.chars().forEach(c -> {
            if (c < 0x20 || c == 0x7F) {
                sb.append(String.format("\\u%04X", c));
            } else {
                sb.append((char) c);
            }
        });
        return sb.toString();
    }
}
