package dev.ourios.server.status;

import dev.ourios.http.Exchange;
import dev.ourios.http.HttpRefusal;
import dev.ourios.http.Route;
import dev.ourios.security.Authorizer;
import dev.ourios.security.TenantGrant;
import dev.ourios.table.TableLayout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code GET /v1/tenants} (query scope): the tenants the request's key may read, so a client (the web UI) can offer
 * them. A {@code *} key (or no keys file) may read every tenant: the answer lists the tenants the store holds (one
 * listing of the data root); a key for named tenants gets exactly those names.
 *
 * <p>Internal to ourios-server: public so that {@link dev.ourios.server.Server} can assemble it.
 */
public final class TenantsEndpoint {
    private final Authorizer authorizer;
    private final TableLayout layout;

    public TenantsEndpoint(Authorizer authorizer, TableLayout layout) {
        this.authorizer = Objects.requireNonNull(authorizer, "authorizer");
        this.layout = Objects.requireNonNull(layout, "layout");
    }

    public Route route() {
        return Route.gated("GET", "/v1/tenants", 0, this::handle);
    }

    private void handle(Exchange ex) throws IOException {
        if (!ex.queryParameters().isEmpty()) {
            String p = ex.queryParameters().keySet().iterator().next();
            throw new HttpRefusal(400, p, p + ": unknown query parameter (GET /v1/tenants takes none)");
        }
        TenantGrant grant = authorizer.grantOf(ex.headers(Authorizer.AUTHORIZATION)).orElseThrow(
                () -> new IllegalStateException("BUG: the gate allowed a request whose key grants nothing"));
        List<String> tenants = grant.any() ? new ArrayList<>(layout.tenants()) : new ArrayList<>(grant.names());
        tenants.sort(null);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("auth", authorizer.enabled());
        out.put("any", grant.any());
        out.put("tenants", tenants);
        out.put("tenant", ex.tenant());
        ex.sendJson(200, out);
    }
}
