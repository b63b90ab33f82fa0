package dev.ourios.http;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How one HTTP listener is built.
 *
 * @param name           thread-name prefix and log label, e.g. {@code ourios-http}
 * @param listen         host and port to bind (port 0 = any free port)
 * @param threads        request handlers running at once
 * @param queue          requests waiting for a handler thread; beyond it the connection is refused with 503
 * @param maxConnections open connections; further ones wait in the kernel's accept backlog
 * @param maxHeaderBytes largest request line plus headers; larger ones get 431
 * @param headerTimeout  time from the first byte of a request (or from connecting) to the end of its headers
 * @param bodyTimeout    time to receive a whole request body once its headers are in
 * @param idleTimeout    a connection with no bytes moving either way for this long is closed
 * @param tls            TLS files; empty = plain HTTP
 */
public record ServerOptions(String name, InetSocketAddress listen, int threads, int queue, int maxConnections,
        int maxHeaderBytes, Duration headerTimeout, Duration bodyTimeout, Duration idleTimeout,
        Optional<TlsFiles> tls) {

    public static final int DEFAULT_MAX_CONNECTIONS = 1024;
    public static final int DEFAULT_MAX_HEADER_BYTES = 16 << 10;
    public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    public ServerOptions {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(headerTimeout, "headerTimeout");
        Objects.requireNonNull(bodyTimeout, "bodyTimeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(tls, "tls");
        if (threads < 1 || queue < 0 || maxConnections < 1 || maxHeaderBytes < 1024) {
            throw new IllegalArgumentException("threads >= 1, queue >= 0, maxConnections >= 1, maxHeaderBytes >= "
                    + "1024 (got " + threads + ", " + queue + ", " + maxConnections + ", " + maxHeaderBytes + ")");
        }
        for (Duration d : new Duration[] {headerTimeout, bodyTimeout, idleTimeout}) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("timeouts must be positive (got " + d + ")");
            }
        }
    }

    /** Plain HTTP with the default limits and timeouts. */
    public static ServerOptions defaults(String name, InetSocketAddress listen, int threads, int queue) {
        return new ServerOptions(name, listen, threads, queue, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_HEADER_BYTES,
                DEFAULT_HEADER_TIMEOUT, DEFAULT_BODY_TIMEOUT, DEFAULT_IDLE_TIMEOUT, Optional.empty());
    }

    public ServerOptions withListen(InetSocketAddress address, int handlerThreads, int waiting) {
        return new ServerOptions(name, address, handlerThreads, waiting, maxConnections, maxHeaderBytes,
                headerTimeout, bodyTimeout, idleTimeout, tls);
    }

    public ServerOptions withName(String label) {
        return new ServerOptions(label, listen, threads, queue, maxConnections, maxHeaderBytes, headerTimeout,
                bodyTimeout, idleTimeout, tls);
    }

    public ServerOptions withTimeouts(Duration header, Duration body, Duration idle) {
        return new ServerOptions(name, listen, threads, queue, maxConnections, maxHeaderBytes, header, body, idle,
                tls);
    }

    public ServerOptions withTls(Optional<TlsFiles> files) {
        return new ServerOptions(name, listen, threads, queue, maxConnections, maxHeaderBytes, headerTimeout,
                bodyTimeout, idleTimeout, files);
    }

    public ServerOptions withLimits(int connections, int headerBytes) {
        return new ServerOptions(name, listen, threads, queue, connections, headerBytes, headerTimeout, bodyTimeout,
                idleTimeout, tls);
    }

    /** {@code https} with TLS, else {@code http}. */
    public String scheme() {
        return tls.isPresent() ? "https" : "http";
    }
}
