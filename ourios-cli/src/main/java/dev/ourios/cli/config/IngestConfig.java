package dev.ourios.cli.config;

import dev.ourios.cli.Units;
import dev.ourios.ingest.IngestSettings;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The OTLP logs receivers of {@code ourios serve} ({@code ingest.*}); {@code settings} is empty when ingest is
 * disabled, {@code grpcListen} when the OTLP/gRPC receiver is ({@code ingest.grpc_listen: off}). The write-ahead log must be on local disk: for a local store it defaults to {@code ourios-wal} beside
 * the store directory, for an S3 store it must be given.
 */
public record IngestConfig(Optional<IngestSettings> settings, Optional<InetSocketAddress> grpcListen) {

    static IngestConfig from(Values v, StoreConfig store) {
        if (!v.bool(ConfigKeys.INGEST_ENABLED)) {
            return new IngestConfig(Optional.empty(), Optional.empty());
        }
        InetSocketAddress listen = v.listen(ConfigKeys.INGEST_LISTEN);
        // 'off', or 'false': what YAML 1.1 makes of a bare off in the file.
        String grpcValue = v.string(ConfigKeys.INGEST_GRPC_LISTEN).strip();
        Optional<InetSocketAddress> grpc = grpcValue.equalsIgnoreCase(ConfigKeys.OFF)
                || grpcValue.equalsIgnoreCase("false") ? Optional.empty()
                : Optional.of(v.listen(ConfigKeys.INGEST_GRPC_LISTEN));
        Path wal;
        if (v.optional(ConfigKeys.INGEST_WAL_DIR).isPresent()) {
            wal = v.path(ConfigKeys.INGEST_WAL_DIR);
        } else if (store.s3().isPresent()) {
            throw new ConfigException(ConfigKeys.INGEST_WAL_DIR + ": required with an S3 store (a local directory "
                    + "for the write-ahead log; or ingest.enabled: false)");
        } else {
            String uri = store.uri();
            Path root = Path.of(uri.startsWith("file://") ? uri.substring("file://".length()) : uri);
            wal = root.toAbsolutePath().normalize().resolveSibling("ourios-wal");
        }
        long flushBytes = v.size(ConfigKeys.INGEST_FLUSH_BYTES);
        Duration flushInterval = v.duration(ConfigKeys.INGEST_FLUSH_INTERVAL);
        if (flushInterval.isZero() || flushInterval.isNegative()) {
            throw new ConfigException(v.label(ConfigKeys.INGEST_FLUSH_INTERVAL) + ": must be positive");
        }
        long maxBuffer = v.size(ConfigKeys.INGEST_MAX_BUFFER_BYTES);
        long walMax = v.size(ConfigKeys.INGEST_WAL_MAX_BYTES);
        long maxBody = v.size(ConfigKeys.INGEST_MAX_BODY_BYTES);
        long bodyLimit = v.range(ConfigKeys.INGEST_MAX_BODY_BYTES).max();
        if (maxBody > bodyLimit) {
            throw new ConfigException(v.label(ConfigKeys.INGEST_MAX_BODY_BYTES) + ": at most "
                    + Units.formatSize(bodyLimit) + " (got " + maxBody + ")");
        }
        int threads = v.integer(ConfigKeys.INGEST_THREADS);
        double share = v.fraction(ConfigKeys.INGEST_MAX_TENANT_BUFFER_SHARE);
        if (!(share > 0)) {
            throw new ConfigException(v.label(ConfigKeys.INGEST_MAX_TENANT_BUFFER_SHARE)
                    + ": must be above 0 (at most 1: the whole buffer)");
        }
        return new IngestConfig(Optional.of(new IngestSettings(listen, wal, flushBytes, flushInterval, maxBuffer,
                walMax, (int) maxBody, threads, share)), grpc);
    }
}
