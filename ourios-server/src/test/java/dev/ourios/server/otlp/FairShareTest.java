package dev.ourios.server.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.ingest.IngestSettings;
import dev.ourios.testkit.Await;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One tenant cannot starve the others of the request buffer: bodies are charged as they arrive (slow clients
 * announcing large bodies hold only what they sent), and a tenant at its share is 429 while other tenants get 200.
 * Real sockets against a receiver in this JVM; every wait is bounded.
 */
class FairShareTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    private static byte[] request(String body) {
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(io.opentelemetry.proto.logs.v1.LogRecord
                        .newBuilder().setTimeUnixNano(1_785_000_000_000_000_000L)
                        .setBody(AnyValue.newBuilder().setStringValue(body))))).build().toByteArray();
    }

    private static HttpResponse<String> post(String endpoint, String tenant, byte[] body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(endpoint)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-protobuf").header("X-Ourios-Tenant", tenant)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A client that announces {@code announced} bytes of body and sends them only when told. */
    private static Socket slowClient(InetSocketAddress a, String tenant, int announced) throws IOException {
        Socket s = new Socket(a.getHostString(), a.getPort());
        s.setSoTimeout(30_000);
        s.getOutputStream().write(("POST /v1/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\n"
                + "X-Ourios-Tenant: " + tenant + "\r\nContent-Length: " + announced + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return s;
    }

    @Test
    void slow_clients_of_one_tenant_hold_only_what_they_sent_and_its_share_leaves_the_others_room()
            throws Exception {
        // 4 MiB of buffer, a quarter of it per tenant, bodies up to 1 MiB.
        IngestSettings s = IngestFixtureAccess.settings(dir).withLimits(4L * MIB, 1L << 30, MIB)
                .withTenantBufferShare(0.25);
        try (var f = IngestFixtureAccess.open(dir, s)) {
            List<Socket> slow = new ArrayList<>();
            try {
                // 20 connections of one tenant each announce a 1 MiB body (20 MiB, five times the buffer) and
                // send it a byte at a time.
                for (int i = 0; i < 20; i++) {
                    slow.add(slowClient(f.address(), "hog", MIB));
                }
                for (int round = 0; round < 3; round++) {
                    for (Socket c : slow) {
                        c.getOutputStream().write(0x0A);
                        c.getOutputStream().flush();
                    }
                    HttpResponse<String> other = post(f.endpoint(), "other", request("other " + round));
                    assertEquals(200, other.statusCode(), other.body());
                }
                Await.until("the slow bytes charged", Duration.ofSeconds(10),
                        () -> f.ingester().budget().used("hog") == 3L * slow.size());
                assertTrue(f.ingester().budget().used() < MIB, "slow clients hold only what they sent");

                // One connection of the tenant sends nearly its whole share and stalls: the tenant is at its share.
                Socket big = slowClient(f.address(), "hog", MIB);
                slow.add(big);
                big.getOutputStream().write(new byte[MIB - 200]);
                big.getOutputStream().flush();
                Await.until("the big body charged", Duration.ofSeconds(10),
                        () -> f.ingester().budget().used("hog") >= MIB - 200);
                HttpResponse<String> throttled = post(f.endpoint(), "hog", request("x".repeat(300)));
                assertEquals(429, throttled.statusCode(), throttled.body());
                assertTrue(throttled.headers().firstValue("Retry-After").isPresent());
                assertTrue(throttled.body().contains("this tenant's requests in flight hold its share"),
                        throttled.body());
                HttpResponse<String> other = post(f.endpoint(), "other", request("still flowing"));
                assertEquals(200, other.statusCode(), other.body());
            } finally {
                for (Socket c : slow) {
                    c.close();
                }
            }
            Await.until("every connection's charge returned", Duration.ofSeconds(30),
                    () -> f.ingester().budget().used() == 0);
            Await.until("the other tenant's records", Duration.ofSeconds(30), () -> f.count("other") == 4);
        }
    }
}
