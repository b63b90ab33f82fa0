package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.testkit.TestTls;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve --tls-cert --tls-key [--tls-client-ca]}: both ports over TLS, with a certificate the test makes. */
class ServeTlsTest {
    @TempDir
    Path dir;

    private static HttpResponse<String> send(SSLContext ctx, HttpRequest request) throws Exception {
        HttpClient c = HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(5)).build();
        return c.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest health(int port) {
        return HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/healthz"))
                .timeout(Duration.ofSeconds(30)).build();
    }

    private static HttpRequest export(int port) {
        return HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/v1/logs"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
    }

    /** One export over gRPC; its status. */
    private static io.grpc.Status grpcExport(int port, io.grpc.ChannelCredentials credentials) throws Exception {
        io.grpc.ManagedChannel channel = io.grpc.Grpc.newChannelBuilderForAddress("localhost", port, credentials)
                .build();
        try {
            io.opentelemetry.proto.collector.logs.v1.LogsServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(30, java.util.concurrent.TimeUnit.SECONDS)
                    .export(io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest.getDefaultInstance());
            return io.grpc.Status.OK;
        } catch (io.grpc.StatusRuntimeException e) {
            return e.getStatus();
        } finally {
            channel.shutdownNow().awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void both_ports_speak_tls_and_mutual_tls_refuses_clients_without_a_ca_certificate() throws Exception {
        TestTls tls = TestTls.generate(dir.resolve("tls"));
        String store = dir.resolve("s").toString();
        Files.createDirectories(Path.of(store));
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false"), "serve",
                "--store", store, "--http", "127.0.0.1:0", "--tls-cert", tls.serverCert().toString(), "--tls-key",
                tls.serverKey().toString(), "--tls-client-ca", tls.caCert().toString())) {
            int api = serve.port();
            int otlp = serve.ingestPort();
            assertTrue(serve.awaitEvent("ourios.serve.started", Duration.ofSeconds(5)).get("Body").asText()
                    .contains("https://"));
            assertEquals(200, send(tls.trustedClient(), health(api)).statusCode());
            HttpResponse<String> q = send(tls.trustedClient(), HttpRequest.newBuilder(URI.create("https://localhost:"
                    + api + "/v1/query")).header("X-Ourios-Tenant", "acme").timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build());
            assertEquals(200, q.statusCode(), q.body());
            HttpResponse<String> logs = send(tls.trustedClient(), export(otlp));
            assertEquals(200, logs.statusCode(), logs.body());
            for (SSLContext refused : new SSLContext[] {tls.anonymousClient(), tls.strangerClient()}) {
                assertThrows(IOException.class, () -> send(refused, health(api)));
                assertThrows(IOException.class, () -> send(refused, export(otlp)));
            }
            // OTLP/gRPC: the same files, the same mutual TLS.
            int grpc = serve.grpcPort();
            assertTrue(grpcExport(grpc, io.grpc.TlsChannelCredentials.newBuilder().trustManager(tls.trustManagers())
                    .keyManager(tls.trustedClientKeys()).build()).isOk(), "a client with a CA certificate");
            for (io.grpc.ChannelCredentials refused : new io.grpc.ChannelCredentials[] {
                    io.grpc.TlsChannelCredentials.newBuilder().trustManager(tls.trustManagers()).build(),
                    io.grpc.TlsChannelCredentials.newBuilder().trustManager(tls.trustManagers())
                            .keyManager(tls.strangerKeys()).build(),
                    io.grpc.InsecureChannelCredentials.create()}) {
                assertEquals(io.grpc.Status.Code.UNAVAILABLE, grpcExport(grpc, refused).getCode(),
                        "no certificate, one no listed CA issued, or plaintext: the connection fails");
            }
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
    }

    @Test
    void unusable_tls_settings_stop_serve_at_start_with_exit_2_naming_the_setting() throws Exception {
        TestTls tls = TestTls.generate(dir.resolve("tls"));
        String store = dir.resolve("s").toString();
        Files.createDirectories(Path.of(store));
        var half = CliProcess.run(dir, "serve", "--store", store, "--http", "127.0.0.1:0", "--otlp-http",
                "127.0.0.1:0", "--tls-cert", tls.serverCert().toString());
        assertEquals(2, half.exit(), half.err());
        assertTrue(half.err().contains("tls.key") && half.err().contains("required with tls.cert"), half.err());

        Path pkcs1 = dir.resolve("rsa-key.pem");
        Files.writeString(pkcs1, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
        var legacy = CliProcess.run(dir, "serve", "--store", store, "--http", "127.0.0.1:0", "--otlp-http",
                "127.0.0.1:0", "--tls-cert", tls.serverCert().toString(), "--tls-key", pkcs1.toString());
        assertEquals(2, legacy.exit(), legacy.err());
        assertTrue(legacy.err().contains("rsa-key.pem") && legacy.err().contains("openssl pkcs8"), legacy.err());

        var missing = CliProcess.run(dir, "serve", "--store", store, "--http", "127.0.0.1:0", "--tls-cert",
                tls.serverCert().toString(), "--tls-key", dir.resolve("nope.pem").toString());
        assertEquals(2, missing.exit(), missing.err());
        assertTrue(missing.err().contains("--tls-key") || missing.err().contains("tls.key"), missing.err());
    }
}
