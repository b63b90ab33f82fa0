package dev.ourios.server.otlp;

import dev.ourios.ingest.IngestSettings;
import java.util.Objects;

/**
 * The OTLP/HTTP logs receiver of the service.
 *
 * @param ingest        the write-ahead log, flushing, buffer and body limits, listen address and threads
 * @param listenSetting how messages name the listen address's setting
 * @param walDirSetting how messages name the write-ahead log directory's setting
 */
public record OtlpSettings(IngestSettings ingest, String listenSetting, String walDirSetting) {
    public OtlpSettings {
        Objects.requireNonNull(ingest, "ingest");
        Objects.requireNonNull(listenSetting, "listenSetting");
        Objects.requireNonNull(walDirSetting, "walDirSetting");
    }
}
