package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.security.ApiKey;
import dev.ourios.security.KeysFile;
import dev.ourios.security.KeysFileCodec;
import dev.ourios.security.Scope;
import dev.ourios.security.TenantGrant;
import dev.ourios.security.TokenHash;
import dev.ourios.testkit.Await;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.LogsServiceGrpc;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every refusal of both OTLP receivers is one log line naming its request id (the one the client got back), the
 * client's address, the path or gRPC method, the tenant and the reason; auth refusals too. A client repeating a bad
 * request fills the log with a few lines a second, the rest counted.
 */
class ServeRefusalLogTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final String EXPORT = "/opentelemetry.proto.collector.logs.v1.LogsService/Export";
    @TempDir
    Path dir;

    @Test
    void each_refusal_is_logged_once_with_request_id_address_path_tenant_and_reason_rate_limited() throws Exception {
        Path keys = dir.resolve("keys.json");
        Files.write(keys, new KeysFileCodec().encode(KeysFile.empty().add(new ApiKey("writer",
                TokenHash.of("w-token"), TenantGrant.of(List.of("acme")), EnumSet.of(Scope.INGEST),
                Instant.parse("2026-11-01T10:00:00Z"), Optional.empty()))));
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-------"));
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_AUTH_KEYS_FILE", keys.toString(),
                "OURIOS_COMPACTION_ENABLED", "false"), "serve", "--store", Files.createDirectories(dir.resolve("s")).toString(),
                "--http", "127.0.0.1:0")) {
            String url = "http://127.0.0.1:" + serve.ingestPort() + "/v1/logs";
            HttpResponse<String> unknown = post(url, "Bearer nope", "{}");
            assertEquals(401, unknown.statusCode());
            awaitLine(serve, id(unknown), "127.0.0.1", "/v1/logs", "tenant 'acme'", "unknown API key");
            HttpResponse<String> bad = post(url, "Bearer w-token", "{\"resourceLogs\":");
            assertEquals(400, bad.statusCode());
            String line = awaitLine(serve, id(bad), "127.0.0.1", "POST /v1/logs", "tenant 'acme'", "malformed JSON");
            assertEquals(1, serve.err().stream().filter(l -> l.contains(id(bad))).count(), "logged once: " + line);

            ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", serve.grpcPort()).usePlaintext()
                    .build();
            try {
                Metadata md = new Metadata();
                md.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer nope");
                md.put(Metadata.Key.of("x-ourios-tenant", Metadata.ASCII_STRING_MARSHALLER), "acme");
                StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, () -> LogsServiceGrpc
                        .newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md))
                        .export(ExportLogsServiceRequest.getDefaultInstance()));
                assertEquals(Status.Code.UNAUTHENTICATED, refused.getStatus().getCode());
                String grpcId = refused.getTrailers().get(Metadata.Key.of("x-request-id",
                        Metadata.ASCII_STRING_MARSHALLER));
                awaitLine(serve, grpcId, "127.0.0.1", EXPORT, "tenant 'acme'", "unknown API key");
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }

            // A flood of the same bad request: a few lines a second, and a later line counts the rest.
            int flood = 60;
            for (int i = 0; i < flood; i++) {
                assertEquals(400, post(url, "Bearer w-token", "[").statusCode());
            }
            Await.until("a line counting the refusals not logged", Duration.ofSeconds(30), () -> {
                try {
                    post(url, "Bearer w-token", "[");
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                return serve.err().stream().anyMatch(l -> l.contains("more refusals for 400 not logged"));
            });
            long lines = serve.err().stream().filter(l -> l.contains("refused (400")).count();
            assertTrue(lines < flood, lines + " lines for " + flood + " refusals");
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
    }

    private static String awaitLine(DaemonProcess serve, String id, String... parts) throws Exception {
        return serve.awaitLine(false, l -> {
            if (!l.contains(id)) {
                return false;
            }
            for (String p : parts) {
                if (!l.contains(p)) {
                    return false;
                }
            }
            return true;
        }, Duration.ofSeconds(30));
    }

    private static String id(HttpResponse<String> r) {
        return r.headers().firstValue("X-Request-Id").orElseThrow();
    }

    private static HttpResponse<String> post(String url, String authorization, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Authorization", authorization)
                .header("X-Ourios-Tenant", "acme").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
