package dev.ourios.cli.config;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * The HTTP endpoint of {@code ourios serve}.
 *
 * @param listen       host and port to bind (unresolved; port 0 = any free port)
 * @param maxBodyBytes larger request bodies are refused with 413 before they are read
 * @param threads      requests handled at once
 * @param queue        requests waiting for a thread
 * @param maxRows      the most rows one query returns, and its default limit
 */
public record HttpConfig(InetSocketAddress listen, int maxBodyBytes, int threads, int queue, int maxRows) {
    public HttpConfig {
        Objects.requireNonNull(listen, "listen");
    }

    static HttpConfig from(Values v) {
        long body = v.size(ConfigKeys.HTTP_MAX_BODY_BYTES, 1);
        if (body > 64L << 20) {
            throw new ConfigException(ConfigKeys.HTTP_MAX_BODY_BYTES + ": at most 64MiB (got " + body + ")");
        }
        return new HttpConfig(v.listen(ConfigKeys.HTTP_LISTEN), (int) body,
                v.integer(ConfigKeys.HTTP_THREADS, 1, 256), v.integer(ConfigKeys.HTTP_QUEUE, 0, 100_000),
                v.integer(ConfigKeys.HTTP_MAX_ROWS, 1, 10_000_000));
    }

    /** host:port as configured, for messages and logs. */
    public String address() {
        return listen.getHostString() + ":" + listen.getPort();
    }
}
