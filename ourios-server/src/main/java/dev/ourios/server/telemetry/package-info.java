/**
 * The process's meter provider ({@link dev.ourios.server.telemetry.Telemetry}): OTLP/HTTP export when
 * {@link dev.ourios.server.telemetry.TelemetrySettings} names an endpoint, else no-op.
 */
package dev.ourios.server.telemetry;
