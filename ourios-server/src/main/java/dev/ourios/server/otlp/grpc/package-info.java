/**
 * The OTLP/gRPC logs receiver: {@code opentelemetry.proto.collector.logs.v1.LogsService/Export} on grpc-java,
 * sharing with the OTLP/HTTP receiver its authorization, tenant rule, write-ahead log, {@code partial_success} and
 * refusal codes.
 */
package dev.ourios.server.otlp.grpc;
