package dev.ourios.http;

import java.util.Optional;

/**
 * The one place every gated route's request passes before its body is read or its handler runs: where an
 * authorizer looks at the request's headers and refuses with a JSON 400, 401 or 403. Routes outside the gate
 * ({@code /healthz}, {@code /readyz}) never reach it.
 */
@FunctionalInterface
public interface RequestGate {
    /** Lets every request through. */
    RequestGate OPEN = exchange -> Optional.empty();

    /** Empty to let the request through, else the refusal to send. */
    Optional<HttpRefusal> check(Exchange exchange);
}
