package dev.ourios.security;

import java.util.Map;
import java.util.Optional;

/**
 * The scope each endpoint needs, the one table both HTTP servers authorize by: {@code POST /v1/query},
 * {@code GET /v1/files}, {@code POST /v1/stats}, {@code GET /v1/fields}, {@code GET /v1/fields/{name}/values},
 * {@code GET /v1/tail} and {@code GET /v1/tenants} (the tenants a key may read) need {@code query},
 * {@code POST /v1/logs} needs {@code ingest}, {@code POST /v1/delete} and {@code GET /v1/status} (the store page's
 * figures) need {@code admin}. Paths not listed (the
 * health endpoints, unknown paths) need no key: health checks come from load balancers without credentials, and an
 * unknown path is answered 404 by the server either way.
 */
public final class EndpointScopes {
    /** The one path with a variable segment: the values of one field. */
    public static final String FIELD_VALUES = "/v1/fields/{name}/values";

    private static final Map<String, Scope> SCOPES = Map.of(
            "/v1/query", Scope.QUERY,
            "/v1/files", Scope.QUERY,
            "/v1/logs", Scope.INGEST,
            "/v1/delete", Scope.ADMIN,
            "/v1/stats", Scope.QUERY,
            "/v1/fields", Scope.QUERY,
            FIELD_VALUES, Scope.QUERY,
            "/v1/tail", Scope.QUERY,
            "/v1/tenants", Scope.QUERY,
            "/v1/status", Scope.ADMIN);

    private EndpointScopes() {
    }

    /** The scope a request path needs, or empty when the path is open. */
    public static Optional<Scope> of(String path) {
        Scope exact = SCOPES.get(path);
        if (exact == null && path.startsWith("/v1/fields/")) {
            return Optional.of(SCOPES.get(FIELD_VALUES)); // every path under it reads logs, whatever its name
        }
        return Optional.ofNullable(exact);
    }

    /** Every path that needs a key, with its scope. */
    public static Map<String, Scope> all() {
        return SCOPES;
    }
}
