package dev.ourios.server.otlp.grpc;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * The OTLP/gRPC receiver's own settings; the rest (WAL, limits, threads, TLS, keys) it shares with OTLP/HTTP.
 *
 * @param listen        host and port to bind (port 0 = any free port)
 * @param listenSetting how messages name the listen address's setting
 */
public record OtlpGrpcSettings(InetSocketAddress listen, String listenSetting) {
    public OtlpGrpcSettings {
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(listenSetting, "listenSetting");
    }
}
