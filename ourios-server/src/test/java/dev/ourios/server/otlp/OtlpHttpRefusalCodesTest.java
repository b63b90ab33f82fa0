package dev.ourios.server.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.http.AuthorizingGate;
import dev.ourios.http.ServerOptions;
import dev.ourios.ingest.IngestMetrics;
import dev.ourios.ingest.IngestSettings;
import dev.ourios.ingest.Ingester;
import dev.ourios.security.ApiKey;
import dev.ourios.security.Authorizer;
import dev.ourios.security.KeyRing;
import dev.ourios.security.KeysFile;
import dev.ourios.security.KeysFileCodec;
import dev.ourios.security.Scope;
import dev.ourios.security.TenantGrant;
import dev.ourios.security.TokenHash;
import dev.ourios.store.LocalObjectStore;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every OTLP/HTTP refusal's {@code google.rpc.Status} body carries the gRPC code of its HTTP status (the code an
 * OTLP/gRPC client would get for the same refusal), never INTERNAL for a client's fault.
 */
class OtlpHttpRefusalCodesTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path dir;

    @Test
    void each_http_status_has_its_grpc_code() {
        Map<Integer, Integer> expected = Map.ofEntries(Map.entry(400, 3), Map.entry(401, 16), Map.entry(403, 7),
                Map.entry(404, 5), Map.entry(405, 12), Map.entry(408, 4), Map.entry(413, 8), Map.entry(414, 3),
                Map.entry(415, 3), Map.entry(426, 9), Map.entry(429, 8), Map.entry(431, 8), Map.entry(500, 13),
                Map.entry(503, 14));
        expected.forEach((http, grpc) -> assertEquals(grpc, RpcStatus.codeFor(http), "HTTP " + http));
    }

    @Test
    void refusals_of_a_running_receiver_carry_their_codes() throws Exception {
        Path keys = dir.resolve("keys.json");
        Files.write(keys, new KeysFileCodec().encode(KeysFile.empty()
                .add(key("writer", "w-token", Scope.INGEST)).add(key("reader", "r-token", Scope.QUERY))));
        IngestSettings settings = IngestSettings.defaults(new InetSocketAddress("127.0.0.1", 0), dir.resolve("wal"));
        try (LocalObjectStore store = new LocalObjectStore(Files.createDirectories(dir.resolve("store")));
                Ingester ingester = Ingester.open(settings, store, new IngestMetrics(MeterProvider.noop()))) {
            ServerOptions options = ServerOptions.defaults("t", settings.listen(), 2, 8)
                    .withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(30));
            OtlpHttpReceiver receiver = new OtlpHttpReceiver(ingester, options, new AuthorizingGate(
                    Authorizer.withKeys(KeyRing.open(keys, Clock.systemUTC()), r -> { })), "ingest.listen");
            int port = receiver.start().getPort();
            try {
                String url = "http://127.0.0.1:" + port + "/v1/logs";
                assertEquals(16, code(post(url, null), 401), "no key: UNAUTHENTICATED");
                assertEquals(7, code(post(url, "Bearer r-token"), 403), "no ingest scope: PERMISSION_DENIED");
                assertEquals(4, code(raw(port, "POST /v1/logs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer w-token\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"), 408),
                        "body not sent in time: DEADLINE_EXCEEDED");
                assertEquals(3, code(raw(port, "GET /" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"), 414),
                        "URI too long: INVALID_ARGUMENT");
                assertEquals(8, code(raw(port, "POST /v1/logs HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(20_000)
                        + "\r\n\r\n"), 431), "headers too large: RESOURCE_EXHAUSTED");
            } finally {
                receiver.stop(Duration.ofSeconds(5));
            }
        }
    }

    @Test
    void a_refusal_never_echoes_a_value_whole_nor_names_a_library() throws Exception {
        try (var f = IngestFixtureAccess.open(dir)) {
            String big = "z".repeat(100_000);
            for (String body : List.of(
                    "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"traceId\":\"" + big + "\"}]}]}]}",
                    "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"flags\":\"" + big + "\"}]}]}]}",
                    "[".repeat(5_000) + "]".repeat(5_000))) {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(f.endpoint()))
                        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(400, r.statusCode());
                String message = JSON.readTree(r.body()).get("message").asText();
                assertTrue(message.length() <= 300, () -> message.length() + ": " + message.substring(0, 300));
                assertTrue(!message.contains("StreamReadConstraints") && !message.contains("()")
                        && !message.contains("com.fasterxml"), message);
            }
        }
    }

    private static HttpResponse<String> post(String url, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}"));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int code(HttpResponse<String> r, int status) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        return JSON.readTree(r.body()).get("code").asInt();
    }

    /** The status line's code must be {@code status}; returns the body's gRPC code. */
    private static int code(String response, int status) throws Exception {
        assertTrue(response.startsWith("HTTP/1.1 " + status), response);
        JsonNode body = JSON.readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
        return body.get("code").asInt();
    }

    /** Sends {@code request} as is and reads the response until the server closes or 10 s pass. */
    private static String raw(int port, String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    got.write(buf, 0, n);
                    String text = got.toString(StandardCharsets.UTF_8);
                    int head = text.indexOf("\r\n\r\n");
                    int len = head < 0 ? -1 : contentLength(text.substring(0, head));
                    if (len >= 0 && got.size() >= head + 4 + len) {
                        break;
                    }
                }
            } catch (java.net.SocketTimeoutException e) {
                // what arrived is the answer
            }
            return got.toString(StandardCharsets.UTF_8);
        }
    }

    private static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(line.substring(15).trim());
            }
        }
        return -1;
    }

    private static ApiKey key(String name, String token, Scope scope) {
        return new ApiKey(name, TokenHash.of(token), TenantGrant.of(List.of("acme")), EnumSet.of(scope),
                Instant.parse("2026-11-01T10:00:00Z"), Optional.empty());
    }
}
