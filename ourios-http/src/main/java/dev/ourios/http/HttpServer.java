package dev.ourios.http;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * One HTTP(S) listener on Jetty's core API, built from {@link ServerOptions}: the one place the listen address,
 * TLS, timeouts, thread pool, connection and header limits, JSON error handling and request ids are set up.
 *
 * <p>Jetty reads requests on selector threads and hands a request to the handler pool only once its headers are
 * in, and bodies are read without a pool thread, so connections that stall mid-header or mid-body hold no handler
 * thread: they are closed by the header, body or idle timeout while other clients are served.
 *
 * <p>Handlers run on a pool of their own ({@code threads} threads, {@code queue} requests waiting), apart from
 * Jetty's threads, which only route, authorize and admit. So handlers that are all busy never delay a refusal:
 * a request beyond the waiting room is answered 503 at once, and a burst of requests still sending their bodies
 * waits for nothing.
 */
public final class HttpServer {
    /** Acceptor and selector threads the pool must hold beside the handler threads. */
    private static final int ACCEPTORS = 1;
    private static final int SELECTORS = 1;
    /** Jetty threads that route, authorize and admit requests; they never run a handler. */
    private static final int DISPATCHERS = 2;

    private final ServerOptions options;
    private final List<Route> routes;
    private final RequestGate gate;
    private final ErrorBody errors;
    private final FailureLog failures;
    private Server server;
    private ServerConnector connector;
    private ThreadPoolExecutor handlers;

    public HttpServer(ServerOptions options, List<Route> routes, RequestGate gate, ErrorBody errors) {
        this(options, routes, gate, errors, FailureLog.SLF4J);
    }

    public HttpServer(ServerOptions options, List<Route> routes, RequestGate gate, ErrorBody errors,
            FailureLog failures) {
        this.options = Objects.requireNonNull(options, "options");
        this.routes = List.copyOf(routes);
        this.gate = Objects.requireNonNull(gate, "gate");
        this.errors = Objects.requireNonNull(errors, "errors");
        this.failures = Objects.requireNonNull(failures, "failures");
    }

    /**
     * Binds and starts; returns the bound address (the real port when 0 was configured).
     *
     * @throws java.io.IOException the address cannot be bound
     * @throws PemStores.PemException a TLS file cannot be used
     */
    public InetSocketAddress start() throws java.io.IOException {
        InetSocketAddress listen = options.listen();
        // Jetty wants an unbounded task queue (its own tasks go through it too); the dispatcher refuses requests
        // with 503 once more than `queue` wait for a thread.
        int jettyThreads = DISPATCHERS + ACCEPTORS + SELECTORS;
        QueuedThreadPool pool = new QueuedThreadPool(jettyThreads, jettyThreads, 60_000, 0,
                new LinkedBlockingQueue<>(), null);
        pool.setName(options.name());
        pool.setDaemon(true);
        server = new Server(pool);
        server.setStopTimeout(0);
        HttpConfiguration http = new HttpConfiguration();
        http.setRequestHeaderSize(options.maxHeaderBytes());
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setIdleTimeout(options.idleTimeout().toMillis());
        ConnectionFactory[] factories;
        if (options.tls().isPresent()) {
            TlsFiles tls = options.tls().get();
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStore(PemStores.keyStore(tls.cert(), tls.key()));
            ssl.setKeyStorePassword(new String(PemStores.PASSWORD));
            ssl.setKeyManagerPassword(new String(PemStores.PASSWORD));
            if (tls.clientCa().isPresent()) {
                ssl.setTrustStore(PemStores.trustStore(tls.clientCa().get()));
                ssl.setNeedClientAuth(true);
            }
            SecureRequestCustomizer secure = new SecureRequestCustomizer();
            secure.setSniHostCheck(false); // clients reach the server by IP or by any of its names
            http.addCustomizer(secure);
            factories = new ConnectionFactory[] {new SslConnectionFactory(ssl, HttpVersion.HTTP_1_1.asString()),
                new HttpConnectionFactory(http)};
        } else {
            factories = new ConnectionFactory[] {new HttpConnectionFactory(http)};
        }
        connector = new ServerConnector(server, ACCEPTORS, SELECTORS, factories);
        connector.setHost(listen.getHostString());
        connector.setPort(listen.getPort());
        connector.setIdleTimeout(options.idleTimeout().toMillis());
        connector.setAcceptQueueSize(128);
        connector.addBean(new HeaderTimeout(server.getScheduler(), options.headerTimeout()));
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(options.maxConnections(), connector));
        server.setErrorHandler(new JsonErrorHandler(errors));
        // The graceful handler counts requests in progress, so stop() waits for them before closing connections.
        handlers = handlerPool(options);
        server.setHandler(new GracefulHandler(new Dispatcher(routes, gate, errors, failures, options, handlers)));
        try {
            server.start();
        } catch (java.io.IOException e) {
            stopQuietly();
            throw e;
        } catch (Exception e) {
            stopQuietly();
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new java.io.IOException(e.getMessage(), e);
        }
        return new InetSocketAddress(listen.getHostString(), connector.getLocalPort());
    }

    /**
     * Stops accepting connections, lets the requests in progress finish (at most {@code max}), then closes every
     * connection.
     */
    public void stop(Duration max) throws InterruptedException {
        if (server == null) {
            return;
        }
        server.setStopTimeout(Math.max(1, max.toMillis()));
        try {
            server.stop();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            org.slf4j.LoggerFactory.getLogger(HttpServer.class).warn("{}: stop: {}", options.name(), e.toString());
        } finally {
            if (handlers != null) {
                handlers.shutdownNow(); // the connections are closed: a handler still running writes to nobody
            }
        }
    }

    /** {@code threads} handler threads, {@code queue} requests waiting for one; beyond that, execute refuses. */
    private static ThreadPoolExecutor handlerPool(ServerOptions options) {
        BlockingQueue<Runnable> waiting = options.queue() == 0 ? new SynchronousQueue<>()
                : new ArrayBlockingQueue<>(options.queue());
        AtomicInteger number = new AtomicInteger();
        return new ThreadPoolExecutor(options.threads(), options.threads(), 60, TimeUnit.SECONDS, waiting, r -> {
            Thread t = new Thread(r, options.name() + "-handler-" + number.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    private void stopQuietly() {
        try {
            server.stop();
        } catch (Exception ignored) {
            // the start failure is what the caller reports
        } finally {
            if (handlers != null) { // null when the start failed before the pool was made
                handlers.shutdownNow();
            }
        }
    }

    public ServerOptions options() {
        return options;
    }
}
