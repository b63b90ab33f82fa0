package dev.ourios.server.http;

import dev.ourios.http.ErrorBody;
import dev.ourios.http.FailureLog;
import dev.ourios.http.HttpServer;
import dev.ourios.http.PemStores;
import dev.ourios.http.RequestGate;
import dev.ourios.http.Route;
import dev.ourios.http.ServerOptions;
import dev.ourios.server.StartupException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One listener of the service, the same for the query API and the OTLP receiver: the bounded server of
 * {@link HttpServer} (timeouts, connection and header limits, TLS, request ids, JSON errors) with the
 * {@link RequestGate} that authorizes every gated route, started with one rule for what a bad address or TLS file
 * is: a {@link StartupException} naming the setting.
 */
public final class HttpListener {
    private final HttpServer server;
    private final InetSocketAddress address;

    private HttpListener(HttpServer server, InetSocketAddress address) {
        this.server = server;
        this.address = address;
    }

    /**
     * Binds and starts serving {@code routes}.
     *
     * @param setting  how messages name the listen address's setting, e.g. {@code http.listen}
     * @param options  address, threads, timeouts, limits and TLS
     * @param gate     checked before the body of every gated route is read
     * @param errors   how refusals are written
     * @param failures told of requests that failed and of every completed request
     * @throws StartupException the host does not resolve, the address cannot be bound, or a TLS file is unusable
     */
    public static HttpListener start(String setting, ServerOptions options, List<Route> routes, RequestGate gate,
            ErrorBody errors, FailureLog failures) {
        Objects.requireNonNull(setting, "setting");
        InetSocketAddress listen = options.listen();
        if (new InetSocketAddress(listen.getHostString(), listen.getPort()).isUnresolved()) {
            throw new StartupException(setting + ": cannot resolve host '" + listen.getHostString() + "'");
        }
        HttpServer server = new HttpServer(options, routes, gate, errors, failures);
        try {
            return new HttpListener(server, server.start());
        } catch (PemStores.PemException e) {
            throw new StartupException("tls: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new StartupException(setting + ": cannot listen on " + listen.getHostString() + ":"
                    + listen.getPort() + ": " + e.getMessage(), e);
        }
    }

    /** The bound address (the real port when 0 was configured). */
    public InetSocketAddress address() {
        return address;
    }

    /** {@code https} with TLS, else {@code http}. */
    public String scheme() {
        return server.options().scheme();
    }

    /** Stops accepting, lets the requests in progress finish (at most {@code max}), then closes every connection. */
    public void stop(Duration max) throws InterruptedException {
        server.stop(max);
    }
}
