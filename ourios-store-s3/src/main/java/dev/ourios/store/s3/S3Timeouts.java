package dev.ourios.store.s3;

import java.time.Duration;
import java.util.Objects;

/**
 * The deadlines of every S3 request, so an endpoint that accepts connections and never answers fails a command in
 * seconds instead of hanging on the operating system's TCP timeouts.
 *
 * @param connect  establishing the TCP (and TLS) connection
 * @param read     the longest wait for the next bytes of a response (the socket timeout), also while a response
 *                 body is streamed
 * @param attempt  one attempt of an API call: request sent and response headers received
 * @param call     one API call with every retry and back-off; a streamed response body is bounded by {@code read}
 *                 per wait, not by this
 */
public record S3Timeouts(Duration connect, Duration read, Duration attempt, Duration call) {
    public static final Duration DEFAULT_CONNECT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_READ = Duration.ofSeconds(10);
    public static final Duration DEFAULT_ATTEMPT = Duration.ofSeconds(20);
    public static final Duration DEFAULT_CALL = Duration.ofSeconds(30);
    public static final S3Timeouts DEFAULTS = new S3Timeouts(DEFAULT_CONNECT, DEFAULT_READ, DEFAULT_ATTEMPT,
            DEFAULT_CALL);

    public S3Timeouts {
        positive("connect", connect);
        positive("read", read);
        positive("attempt", attempt);
        positive("call", call);
        if (call.compareTo(attempt) < 0) {
            throw new IllegalArgumentException("the call timeout (" + call + ") must not be shorter than the attempt "
                    + "timeout (" + attempt + ")");
        }
    }

    private static void positive(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("the " + name + " timeout must be positive (got " + d + ")");
        }
    }
}
