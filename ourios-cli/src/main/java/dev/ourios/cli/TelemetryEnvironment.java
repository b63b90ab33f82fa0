package dev.ourios.cli;

import dev.ourios.server.telemetry.TelemetrySettings;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The telemetry settings of a command, from the OpenTelemetry SDK's own variables: {@code OTEL_EXPORTER_OTLP_ENDPOINT}
 * (unset or blank: no metrics) and {@code OTEL_METRIC_EXPORT_INTERVAL} (milliseconds, default 60000).
 */
public final class TelemetryEnvironment {
    private TelemetryEnvironment() {
    }

    public static TelemetrySettings read(Map<String, String> env) {
        String endpoint = env.get("OTEL_EXPORTER_OTLP_ENDPOINT");
        if (endpoint == null || endpoint.isBlank()) {
            return TelemetrySettings.NONE;
        }
        String interval = env.get("OTEL_METRIC_EXPORT_INTERVAL");
        Duration every = interval == null || interval.isBlank() ? TelemetrySettings.DEFAULT_EXPORT_INTERVAL
                : Duration.ofMillis(Long.parseLong(interval.trim()));
        return new TelemetrySettings(Optional.of(endpoint), every);
    }
}
