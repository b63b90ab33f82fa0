package dev.ourios.server.telemetry;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the process's metrics go.
 *
 * @param endpoint       the OTLP/HTTP endpoint ({@code /v1/metrics} is appended unless it ends so); empty = no
 *                       metrics are collected
 * @param exportInterval time between two exports
 */
public record TelemetrySettings(Optional<String> endpoint, Duration exportInterval) {
    /** The export interval when none is given, as the OpenTelemetry SDK's default. */
    public static final Duration DEFAULT_EXPORT_INTERVAL = Duration.ofSeconds(60);
    /** No metrics. */
    public static final TelemetrySettings NONE = new TelemetrySettings(Optional.empty(), DEFAULT_EXPORT_INTERVAL);

    public TelemetrySettings {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(exportInterval, "exportInterval");
    }
}
