package dev.ourios.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.testkit.TestTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS and mutual TLS with certificates the test makes, spoken to by the JDK's HttpClient. */
class TlsTest {
    /** These tests exercise the server, not authorization: every request passes. */
    private static final RequestGate NO_GATE = exchange -> java.util.Optional.empty();

    @TempDir
    static Path dir;
    static TestTls tls;

    @BeforeAll
    static void certificates() throws Exception {
        tls = TestTls.generate(dir.resolve("tls"));
    }

    private static HttpServer server(Optional<Path> clientCa) {
        ServerOptions o = ServerOptions.defaults("tls-test", new InetSocketAddress("127.0.0.1", 0), 2, 8)
                .withTls(Optional.of(new TlsFiles(tls.serverCert(), tls.serverKey(), clientCa)));
        return new HttpServer(o, List.of(Route.open("GET", "/healthz", ex -> ex.sendJson(200, Map.of("status",
                "ok")))), NO_GATE, ErrorBody.JSON);
    }

    private static HttpResponse<String> get(SSLContext ctx, String scheme, int port) throws Exception {
        HttpClient c = HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(5)).build();
        return c.send(HttpRequest.newBuilder(URI.create(scheme + "://localhost:" + port + "/healthz"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void https_with_a_pem_certificate_and_pkcs8_key() throws Exception {
        HttpServer s = server(Optional.empty());
        int port = s.start().getPort();
        try {
            HttpResponse<String> r = get(tls.anonymousClient(), "https", port);
            assertEquals(200, r.statusCode());
            assertTrue(r.body().contains("ok"), r.body());
            // Plain HTTP on the TLS port gets no answer a client could mistake for success.
            assertThrows(IOException.class, () -> get(tls.anonymousClient(), "http", port));
        } finally {
            s.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void mutual_tls_refuses_clients_without_a_certificate_from_the_ca() throws Exception {
        HttpServer s = server(Optional.of(tls.caCert()));
        int port = s.start().getPort();
        try {
            assertEquals(200, get(tls.trustedClient(), "https", port).statusCode());
            assertThrows(IOException.class, () -> get(tls.anonymousClient(), "https", port));
            assertThrows(IOException.class, () -> get(tls.strangerClient(), "https", port));
        } finally {
            s.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void unusable_key_files_are_refused_at_start_naming_the_file() throws Exception {
        Path pkcs1 = dir.resolve("rsa.key");
        Files.writeString(pkcs1, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
        PemStores.PemException e = assertThrows(PemStores.PemException.class,
                () -> PemStores.keyStore(tls.serverCert(), pkcs1));
        assertTrue(e.getMessage().contains("rsa.key") && e.getMessage().contains("openssl pkcs8"), e.getMessage());
        Path empty = dir.resolve("empty.pem");
        Files.writeString(empty, "");
        e = assertThrows(PemStores.PemException.class, () -> PemStores.keyStore(empty, tls.serverKey()));
        assertTrue(e.getMessage().contains("empty.pem"), e.getMessage());
        // A key that is not the certificate's: the CA's certificate with the server's key.
        e = assertThrows(PemStores.PemException.class, () -> PemStores.keyStore(tls.caCert(), tls.serverKey()));
        assertTrue(e.getMessage().contains("does not match"), e.getMessage());
    }
}
