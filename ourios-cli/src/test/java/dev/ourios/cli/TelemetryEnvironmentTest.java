package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ourios.server.telemetry.TelemetrySettings;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The OpenTelemetry SDK's variables become the server module's telemetry settings. */
class TelemetryEnvironmentTest {
    @Test
    void noEndpointMeansNoMetrics() {
        assertEquals(TelemetrySettings.NONE, TelemetryEnvironment.read(Map.of()));
        assertEquals(TelemetrySettings.NONE, TelemetryEnvironment.read(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "  ",
                "OTEL_METRIC_EXPORT_INTERVAL", "5")));
    }

    @Test
    void anEndpointWithTheDefaultOrAGivenInterval() {
        assertEquals(new TelemetrySettings(Optional.of("http://collector:4318"), Duration.ofSeconds(60)),
                TelemetryEnvironment.read(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")));
        assertEquals(new TelemetrySettings(Optional.of("http://collector:4318"), Duration.ofMillis(1500)),
                TelemetryEnvironment.read(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
                        "OTEL_METRIC_EXPORT_INTERVAL", " 1500 ")));
    }

    @Test
    void anIntervalThatIsNotANumberIsRefused() {
        assertThrows(NumberFormatException.class, () -> TelemetryEnvironment.read(Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", "OTEL_METRIC_EXPORT_INTERVAL", "soon")));
    }
}
