package dev.ourios.http;

import dev.ourios.security.Authorizer;
import dev.ourios.security.Caller;
import dev.ourios.security.Decision;
import dev.ourios.security.EndpointScopes;
import dev.ourios.security.Scope;
import dev.ourios.security.TenantHeader;
import java.util.Objects;
import java.util.Optional;

/**
 * The gate both servers put in front of their {@code /v1/*} routes: the {@link Authorizer} decides from the
 * request's {@code Authorization} and {@code X-Ourios-Tenant} values and the scope the path needs
 * ({@link EndpointScopes}) whether it may go on and for which tenant. An allowed request carries that tenant
 * ({@link Exchange#tenant()}); handlers never read the tenant header themselves, so no route can act for a tenant its
 * key lacks. With authorization off the same decision still applies the tenant header's rules (one header,
 * percent-encoded UTF-8, absent meaning {@code default}).
 */
public final class AuthorizingGate implements RequestGate {
    private final Authorizer authorizer;

    public AuthorizingGate(Authorizer authorizer) {
        this.authorizer = Objects.requireNonNull(authorizer, "authorizer");
    }

    /** A gate with authorization off: every request allowed, for the tenant its header names. */
    public static AuthorizingGate open() {
        return new AuthorizingGate(Authorizer.off(reason -> { }));
    }

    @Override
    public Optional<HttpRefusal> check(Exchange exchange) {
        Scope scope = EndpointScopes.of(exchange.path()).orElseThrow(() -> new IllegalStateException(
                "BUG: gated route " + exchange.path() + " has no scope in EndpointScopes"));
        Decision d = authorizer.authorize(exchange.headers(Authorizer.AUTHORIZATION),
                exchange.headers(TenantHeader.NAME), scope,
                new Caller(exchange.requestId(), exchange.remoteAddress(), exchange.path()));
        if (d instanceof Decision.Denied denied) {
            // The authorizer logged it, with the caller: the listener does not log it again.
            return Optional.of(new HttpRefusal(denied.status(), denied.field(), denied.message(), 0,
                    denied.challenge().orElse(null)).alreadyLogged());
        }
        exchange.actFor(((Decision.Allowed) d).tenant());
        return Optional.empty();
    }
}
