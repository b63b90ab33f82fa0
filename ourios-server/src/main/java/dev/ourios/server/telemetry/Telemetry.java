package dev.ourios.server.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The process's meter provider: OTLP/HTTP (JDK HTTP client, no OkHttp) when {@link TelemetrySettings} names an
 * endpoint, otherwise a no-op provider so nothing is collected that nobody reads.
 */
public final class Telemetry implements AutoCloseable {
    private final MeterProvider provider;
    private final SdkMeterProvider sdk;

    private Telemetry(MeterProvider provider, SdkMeterProvider sdk) {
        this.provider = provider;
        this.sdk = sdk;
    }

    public static Telemetry open(TelemetrySettings settings) {
        if (settings.endpoint().isEmpty()) {
            return new Telemetry(MeterProvider.noop(), null);
        }
        String endpoint = settings.endpoint().get();
        String url = endpoint.endsWith("/v1/metrics") ? endpoint
                : endpoint.replaceAll("/+$", "") + "/v1/metrics";
        Duration every = settings.exportInterval();
        OtlpHttpMetricExporter exporter = OtlpHttpMetricExporter.builder().setEndpoint(url)
                .setTimeout(Duration.ofSeconds(10)).build();
        SdkMeterProvider sdk = SdkMeterProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(
                        Attributes.of(AttributeKey.stringKey("service.name"), "ourios"))))
                .registerMetricReader(PeriodicMetricReader.builder(exporter).setInterval(every).build())
                .build();
        return new Telemetry(sdk, sdk);
    }

    public MeterProvider meterProvider() {
        return provider;
    }

    /** Flushes what was recorded (a one-shot command's metrics would otherwise be lost at exit). */
    @Override
    public void close() {
        if (sdk != null) {
            sdk.forceFlush().join(10, TimeUnit.SECONDS);
            sdk.shutdown().join(10, TimeUnit.SECONDS);
        }
    }
}
