package dev.ourios.security;

import java.util.Map;
import java.util.Optional;

/**
 * The scope each endpoint needs, the one table both HTTP servers authorize by: {@code POST /v1/query} and
 * {@code GET /v1/files} need {@code query}, {@code POST /v1/logs} needs {@code ingest}, {@code POST /v1/delete}
 * needs {@code admin}, {@code GET /v1/tenants} (the tenants a key may read) needs {@code query},
 * {@code GET /v1/status} (the store page's figures) needs {@code admin}. Paths not listed (the
 * health endpoints, unknown paths) need no key: health checks come from load balancers without credentials, and an
 * unknown path is answered 404 by the server either way.
 */
public final class EndpointScopes {
    private static final Map<String, Scope> SCOPES = Map.of(
            "/v1/query", Scope.QUERY,
            "/v1/files", Scope.QUERY,
            "/v1/logs", Scope.INGEST,
            "/v1/delete", Scope.ADMIN,
            "/v1/tenants", Scope.QUERY,
            "/v1/status", Scope.ADMIN);

    private EndpointScopes() {
    }

    /** The scope a request path needs, or empty when the path is open. */
    public static Optional<Scope> of(String path) {
        return Optional.ofNullable(SCOPES.get(path));
    }

    /** Every path that needs a key, with its scope. */
    public static Map<String, Scope> all() {
        return SCOPES;
    }
}
