package dev.ourios.http;

import java.util.Optional;

/**
 * The one place every gated route's request passes before its body is read or its handler runs: where an
 * authorizer looks at the request's headers, refuses with a JSON 400, 401 or 403 or records the tenant the request
 * acts for ({@link AuthorizingGate}). Routes outside the gate ({@code /healthz}, {@code /readyz}) never reach it.
 */
@FunctionalInterface
public interface RequestGate {
    /** Empty to let the request through, else the refusal to send. */
    Optional<HttpRefusal> check(Exchange exchange);
}
