package dev.ourios.server.otlp;

import dev.ourios.ingest.IngestSettings;
import dev.ourios.server.otlp.grpc.OtlpGrpcSettings;
import java.util.Objects;
import java.util.Optional;

/**
 * The OTLP logs receivers of the service: OTLP/HTTP always (when ingest is on), OTLP/gRPC when {@code grpc} is set.
 *
 * @param ingest        the write-ahead log, flushing, buffer and body limits, listen address and threads
 * @param listenSetting how messages name the listen address's setting
 * @param walDirSetting how messages name the write-ahead log directory's setting
 * @param grpc          the OTLP/gRPC receiver, sharing the same write-ahead log; empty = none
 */
public record OtlpSettings(IngestSettings ingest, String listenSetting, String walDirSetting,
        Optional<OtlpGrpcSettings> grpc) {
    public OtlpSettings {
        Objects.requireNonNull(ingest, "ingest");
        Objects.requireNonNull(listenSetting, "listenSetting");
        Objects.requireNonNull(walDirSetting, "walDirSetting");
        Objects.requireNonNull(grpc, "grpc");
    }

    /** OTLP/HTTP only. */
    public OtlpSettings(IngestSettings ingest, String listenSetting, String walDirSetting) {
        this(ingest, listenSetting, walDirSetting, Optional.empty());
    }
}
