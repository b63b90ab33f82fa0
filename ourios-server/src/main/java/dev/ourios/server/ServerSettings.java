package dev.ourios.server;

import dev.ourios.server.auth.AuthSettings;
import dev.ourios.server.iceberg.IcebergSettings;
import dev.ourios.server.otlp.OtlpSettings;
import dev.ourios.server.query.QueryApiSettings;
import dev.ourios.server.sweep.SweepLoopSettings;
import dev.ourios.server.telemetry.TelemetrySettings;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the service runs with, one record per concern, validated by whoever builds it (the command line, from
 * flags, environment and configuration file).
 *
 * @param storeUri     the store as the operator named it, for the log
 * @param http         the query API and the listener settings both surfaces share
 * @param otlp         the OTLP/HTTP receiver; empty when ingest is disabled
 * @param compaction   the sweep loop
 * @param iceberg      the Iceberg view's syncer
 * @param auth         the keys file and the loopback rule
 * @param telemetry    where metrics go
 * @param drainTimeout how long a stop may take to finish running work before the process halts anyway
 */
public record ServerSettings(String storeUri, QueryApiSettings http, Optional<OtlpSettings> otlp,
        SweepLoopSettings compaction, IcebergSettings iceberg, AuthSettings auth, TelemetrySettings telemetry,
        Duration drainTimeout) {
    public ServerSettings {
        Objects.requireNonNull(storeUri, "storeUri");
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(otlp, "otlp");
        Objects.requireNonNull(compaction, "compaction");
        Objects.requireNonNull(iceberg, "iceberg");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(telemetry, "telemetry");
        Objects.requireNonNull(drainTimeout, "drainTimeout");
        if (iceberg.enabled() && !compaction.enabled()) {
            throw new IllegalArgumentException("the Iceberg view needs the compaction daemon (its GC keeps what the "
                    + "view references)");
        }
    }
}
