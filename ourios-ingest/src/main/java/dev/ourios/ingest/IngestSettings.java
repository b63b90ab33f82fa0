package dev.ourios.ingest;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The receiver's settings (configuration keys {@code ingest.*}).
 *
 * @param listen        address of {@code POST /v1/logs}
 * @param walDir        the write-ahead log's directory (local disk)
 * @param flushBytes    a WAL segment is sealed and flushed once it holds this many bytes
 * @param flushInterval ... or once it has been open this long: the bound on how long an acknowledged record takes
 *                      to become queryable (plus the flush itself)
 * @param maxBufferBytes heap for requests in flight (bodies, decompressed bodies, decoded records); beyond it 429
 * @param walMaxBytes   WAL bytes not yet flushed; beyond it 503 (the store is behind or down)
 * @param maxBodyBytes  largest request body, compressed and decompressed alike; beyond it 413
 * @param threads       requests decoded at once
 * @param maxTenantBufferShare the largest fraction of {@code maxBufferBytes} one tenant's requests may hold at once
 *                      (above 0, at most 1); beyond it that tenant gets 429 while the others go on
 */
public record IngestSettings(InetSocketAddress listen, Path walDir, long flushBytes, Duration flushInterval,
        long maxBufferBytes, long walMaxBytes, int maxBodyBytes, int threads, double maxTenantBufferShare) {

    public static final long DEFAULT_FLUSH_BYTES = 16L << 20;
    public static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofSeconds(2);
    public static final long DEFAULT_MAX_BUFFER_BYTES = 256L << 20;
    public static final long DEFAULT_WAL_MAX_BYTES = 1L << 30;
    public static final int DEFAULT_MAX_BODY_BYTES = 16 << 20;
    public static final int DEFAULT_THREADS = 4;
    public static final double DEFAULT_MAX_TENANT_BUFFER_SHARE = 0.25;

    public IngestSettings {
        if (!(maxTenantBufferShare > 0 && maxTenantBufferShare <= 1)) {
            throw new IllegalArgumentException("maxTenantBufferShare must be in (0, 1], got " + maxTenantBufferShare);
        }
    }

    public static IngestSettings defaults(InetSocketAddress listen, Path walDir) {
        return new IngestSettings(listen, walDir, DEFAULT_FLUSH_BYTES, DEFAULT_FLUSH_INTERVAL,
                DEFAULT_MAX_BUFFER_BYTES, DEFAULT_WAL_MAX_BYTES, DEFAULT_MAX_BODY_BYTES, DEFAULT_THREADS,
                DEFAULT_MAX_TENANT_BUFFER_SHARE);
    }

    public IngestSettings withFlush(long bytes, Duration interval) {
        return new IngestSettings(listen, walDir, bytes, interval, maxBufferBytes, walMaxBytes, maxBodyBytes, threads,
                maxTenantBufferShare);
    }

    public IngestSettings withLimits(long maxBuffer, long walMax, int maxBody) {
        return new IngestSettings(listen, walDir, flushBytes, flushInterval, maxBuffer, walMax, maxBody, threads,
                maxTenantBufferShare);
    }

    public IngestSettings withTenantBufferShare(double share) {
        return new IngestSettings(listen, walDir, flushBytes, flushInterval, maxBufferBytes, walMaxBytes,
                maxBodyBytes, threads, share);
    }
}
