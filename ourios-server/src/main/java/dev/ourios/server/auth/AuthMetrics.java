package dev.ourios.server.auth;

import dev.ourios.security.DenialReason;
import dev.ourios.security.DenialRecorder;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.MeterProvider;

/**
 * The authorization instrument (meter {@code ourios.auth}), named as in {@code semconv/registry/metrics.yaml}:
 * requests refused, by reason.
 */
public final class AuthMetrics implements DenialRecorder {
    public static final String METER = "ourios.auth";
    static final AttributeKey<String> REASON = AttributeKey.stringKey("ourios.auth.reason");
    private final LongCounter denials;

    public AuthMetrics(MeterProvider provider) {
        denials = provider.get(METER).counterBuilder("ourios.auth.denials").setUnit("{request}")
                .setDescription("Requests refused by authorization (400, 401, 403), by reason").build();
    }

    @Override
    public void denied(DenialReason reason) {
        denials.add(1, Attributes.of(REASON, reason.wireName()));
    }
}
