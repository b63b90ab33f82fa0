package dev.ourios.http;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The PEM files of a TLS listener.
 *
 * @param cert     the server certificate, then any intermediates (PEM {@code CERTIFICATE} blocks)
 * @param key      the server's private key, unencrypted PKCS#8 (PEM {@code PRIVATE KEY})
 * @param clientCa when present, clients must present a certificate issued by one of these CAs (mutual TLS)
 */
public record TlsFiles(Path cert, Path key, Optional<Path> clientCa) {
    public TlsFiles {
        Objects.requireNonNull(cert, "cert");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(clientCa, "clientCa");
    }
}
