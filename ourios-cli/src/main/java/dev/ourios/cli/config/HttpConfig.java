package dev.ourios.cli.config;

import dev.ourios.server.tail.TailSettings;
import dev.ourios.cli.Units;
import dev.ourios.http.ServerOptions;
import dev.ourios.http.TlsFiles;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The HTTP endpoint of {@code ourios serve}, and the listener settings it shares with the OTLP receiver
 * (timeouts, connection limit, TLS).
 *
 * @param listen               host and port to bind (unresolved; port 0 = any free port)
 * @param maxBodyBytes         larger request bodies are refused with 413 before they are read
 * @param threads              requests handled at once
 * @param queue                requests waiting for a thread (beyond it 503)
 * @param maxRows              the most rows one query returns, and its default limit
 * @param maxResponseBytes     the rows of one response stop after about this many bytes
 * @param maxConcurrentQueries queries running at once (beyond it 429)
 * @param queryTimeout         the deadline of one query
 * @param server               timeouts, connection limit and TLS of both listeners
 * @param tail                 live tail bounds
 * @param uiEnabled            whether the web UI is served at {@code /} on the query port
 */
public record HttpConfig(InetSocketAddress listen, int maxBodyBytes, int threads, int queue, int maxRows,
        long maxResponseBytes, int maxConcurrentQueries, Duration queryTimeout, ServerOptions server,
        TailSettings tail, boolean uiEnabled) {
    public HttpConfig {
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(queryTimeout, "queryTimeout");
        Objects.requireNonNull(server, "server");
    }

    static HttpConfig from(Values v) {
        long body = v.size(ConfigKeys.HTTP_MAX_BODY_BYTES);
        long maxBody = v.range(ConfigKeys.HTTP_MAX_BODY_BYTES).max();
        if (body > maxBody) {
            throw new ConfigException(ConfigKeys.HTTP_MAX_BODY_BYTES + ": at most " + Units.formatSize(maxBody)
                    + " (got " + body + ")");
        }
        InetSocketAddress listen = v.listen(ConfigKeys.HTTP_LISTEN);
        int threads = v.integer(ConfigKeys.HTTP_THREADS);
        int queue = v.integer(ConfigKeys.HTTP_QUEUE);
        ServerOptions server = ServerOptions.defaults("ourios-http", listen, threads, queue)
                .withTimeouts(positive(v, ConfigKeys.HTTP_HEADER_TIMEOUT), positive(v, ConfigKeys.HTTP_BODY_TIMEOUT),
                        positive(v, ConfigKeys.HTTP_IDLE_TIMEOUT))
                .withLimits(v.integer(ConfigKeys.HTTP_MAX_CONNECTIONS),
                        ServerOptions.DEFAULT_MAX_HEADER_BYTES)
                .withTls(tls(v));
        // Each open tail holds a handler thread: at least one is always left for every other request.
        int tails = Math.min(v.integer(ConfigKeys.HTTP_TAIL_MAX_CLIENTS), threads - 1);
        TailSettings tail = new TailSettings(tails, v.integer(ConfigKeys.HTTP_TAIL_QUEUE_ROWS),
                positive(v, ConfigKeys.HTTP_TAIL_HEARTBEAT));
        return new HttpConfig(listen, (int) body, threads, queue, v.integer(ConfigKeys.HTTP_MAX_ROWS),
                v.size(ConfigKeys.HTTP_MAX_RESPONSE_BYTES),
                v.integer(ConfigKeys.HTTP_MAX_CONCURRENT_QUERIES), positive(v, ConfigKeys.HTTP_QUERY_TIMEOUT),
                server, tail, v.bool(ConfigKeys.HTTP_UI_ENABLED));
    }

    private static Duration positive(Values v, String key) {
        Duration d = v.duration(key);
        if (d.isZero() || d.isNegative()) {
            throw new ConfigException(v.label(key) + ": must be positive");
        }
        return d;
    }

    /** Both files or neither; each must be a readable file (its content is checked when the listener starts). */
    private static Optional<TlsFiles> tls(Values v) {
        Optional<String> cert = v.optional(ConfigKeys.TLS_CERT);
        Optional<String> key = v.optional(ConfigKeys.TLS_KEY);
        Optional<String> ca = v.optional(ConfigKeys.TLS_CLIENT_CA);
        if (cert.isEmpty() && key.isEmpty()) {
            if (ca.isPresent()) {
                throw new ConfigException(v.label(ConfigKeys.TLS_CLIENT_CA) + ": needs " + ConfigKeys.TLS_CERT
                        + " and " + ConfigKeys.TLS_KEY + " (mutual TLS is TLS first)");
            }
            return Optional.empty();
        }
        if (cert.isEmpty() || key.isEmpty()) {
            String missing = cert.isEmpty() ? ConfigKeys.TLS_CERT : ConfigKeys.TLS_KEY;
            String given = cert.isEmpty() ? ConfigKeys.TLS_KEY : ConfigKeys.TLS_CERT;
            throw new ConfigException(v.label(missing) + ": required with " + given);
        }
        Path certFile = readable(v, ConfigKeys.TLS_CERT);
        Path keyFile = readable(v, ConfigKeys.TLS_KEY);
        Optional<Path> caFile = ca.isPresent() ? Optional.of(readable(v, ConfigKeys.TLS_CLIENT_CA)) : Optional.empty();
        return Optional.of(new TlsFiles(certFile, keyFile, caFile));
    }

    private static Path readable(Values v, String key) {
        Path p = v.path(key);
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw new ConfigException(v.label(key) + ": " + p + " is not a readable file");
        }
        return p;
    }

    /** host:port as configured, for messages and logs. */
    public String address() {
        return listen.getHostString() + ":" + listen.getPort();
    }
}
