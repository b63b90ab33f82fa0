package dev.ourios.server.otlp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.ourios.core.BodyKind;
import dev.ourios.core.LogRecord;
import dev.ourios.ingest.IngestSettings;
import dev.ourios.testkit.Await;
import dev.ourios.testkit.Testdata;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord.Builder;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.io.ByteArrayOutputStream;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OTLP/HTTP surface: encodings, gzip, partial success and every refusal, against a receiver in this JVM. */
class OtlpHttpReceiverTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final long T0 = 1_785_000_000_000_000_000L; // 2026-07-25T17:20:00Z

    @TempDir
    Path dir;

    private static HttpResponse<byte[]> post(String endpoint, String type, byte[] body, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", type).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static io.opentelemetry.proto.logs.v1.LogRecord record(int i) {
        Builder r = io.opentelemetry.proto.logs.v1.LogRecord.newBuilder().setTimeUnixNano(T0 + i)
                .setSeverityNumberValue(9).setBody(AnyValue.newBuilder().setStringValue("line " + i));
        return r.build();
    }

    private static ExportLogsServiceRequest request(List<io.opentelemetry.proto.logs.v1.LogRecord> records) {
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .addScopeLogs(ScopeLogs.newBuilder().addAllLogRecords(records))).build();
    }

    private static byte[] gzip(byte[] b) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    @Test
    void the_otlp_json_sample_lands_with_hex_ids_and_every_value() throws Exception {
        try (var f = IngestFixtureAccess.open(dir)) {
            byte[] json = Files.readAllBytes(Testdata.file("otlp", "opentelemetry-proto-example-logs.json"));
            HttpResponse<byte[]> r = post(f.endpoint(), "application/json", json, "X-Ourios-Tenant", "acme");
            assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
            assertEquals("application/json", r.headers().firstValue("Content-Type").orElseThrow());
            assertEquals("{}", new String(r.body(), StandardCharsets.UTF_8));
            Await.until("the sample queryable", Duration.ofSeconds(30), () -> f.count("acme") >= 1);
            List<LogRecord> rows = f.rows("acme");
            assertEquals(1, rows.size());
            LogRecord row = rows.get(0);
            assertArrayEquals(HexFormat.of().parseHex("5B8EFFF798038103D269B633813FC60C"), row.traceId());
            assertArrayEquals(HexFormat.of().parseHex("EEE19B7EC3C1B174"), row.spanId());
            assertEquals(1544712660300000000L, row.timeUnixNano());
            assertEquals("Information", row.severityText());
            assertEquals("my.service", row.serviceName());
            assertEquals("my.library", row.scopeName());
            assertEquals("1.0.0", row.scopeVersion());
            assertEquals(BodyKind.STRING, row.bodyKind());
            assertEquals("Example log record", new String(row.body(), StandardCharsets.UTF_8));
            assertTrue(row.attributes().contains("{\"key\":\"int.attribute\",\"value\":{\"intValue\":\"10\"}}"),
                    row.attributes());
            assertTrue(row.attributes().contains("{\"key\":\"double.attribute\",\"value\":{\"doubleValue\":637.704}}"),
                    row.attributes());
            assertTrue(row.scopeAttributes().contains("my.scope.attribute"), row.scopeAttributes());
        }
    }

    @Test
    void a_gzip_protobuf_body_is_inflated_and_a_default_tenant_is_used_without_the_header() throws Exception {
        try (var f = IngestFixtureAccess.open(dir)) {
            byte[] body = gzip(request(List.of(record(1), record(2), record(3))).toByteArray());
            HttpResponse<byte[]> r = post(f.endpoint(), "application/x-protobuf", body, "Content-Encoding", "gzip");
            assertEquals(200, r.statusCode());
            ExportLogsServiceResponse resp = ExportLogsServiceResponse.parseFrom(r.body());
            assertEquals(0, resp.getPartialSuccess().getRejectedLogRecords());
            Await.until("three rows", Duration.ofSeconds(30), () -> f.count("default") >= 3);
            assertEquals(3, f.rows("default").size());
        }
    }

    @Test
    void records_with_bad_ids_are_refused_by_partial_success_and_the_rest_stored() throws Exception {
        try (var f = IngestFixtureAccess.open(dir)) {
            var bad = record(2).toBuilder().setTraceId(ByteString.copyFrom(new byte[5])).build();
            var badSpan = record(3).toBuilder().setSpanId(ByteString.copyFrom(new byte[9])).build();
            HttpResponse<byte[]> r = post(f.endpoint(), "application/x-protobuf",
                    request(List.of(record(1), bad, badSpan, record(4))).toByteArray(), "X-Ourios-Tenant", "t1");
            assertEquals(200, r.statusCode());
            ExportLogsServiceResponse resp = ExportLogsServiceResponse.parseFrom(r.body());
            assertEquals(2, resp.getPartialSuccess().getRejectedLogRecords());
            assertTrue(resp.getPartialSuccess().getErrorMessage().contains("trace_id must be 16 bytes, got 5"),
                    resp.getPartialSuccess().getErrorMessage());
            Await.until("two rows", Duration.ofSeconds(30), () -> f.count("t1") >= 2);
            assertEquals(2, f.rows("t1").size());

            // The same in OTLP/JSON: a 3-byte hex trace id is refused on its own, the answer is JSON.
            String json = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"" + T0
                    + "\",\"traceId\":\"abcdef\"},{\"timeUnixNano\":" + T0 + "}]}]}]}";
            r = post(f.endpoint(), "application/json", json.getBytes(StandardCharsets.UTF_8), "X-Ourios-Tenant", "t2");
            assertEquals(200, r.statusCode());
            String answer = new String(r.body(), StandardCharsets.UTF_8);
            assertTrue(answer.contains("\"rejectedLogRecords\":\"1\""), answer);
            assertTrue(answer.contains("trace_id must be 16 bytes, got 3"), answer);
        }
    }

    @Test
    void undecodable_bodies_are_400_in_the_request_encoding() throws Exception {
        try (var f = IngestFixtureAccess.open(dir)) {
            HttpResponse<byte[]> r = post(f.endpoint(), "application/x-protobuf", new byte[] {(byte) 0xFF, 1, 2});
            assertEquals(400, r.statusCode());
            assertEquals("application/x-protobuf", r.headers().firstValue("Content-Type").orElseThrow());
            r = post(f.endpoint(), "application/json", "{\"resourceLogs\":".getBytes(StandardCharsets.UTF_8));
            assertEquals(400, r.statusCode());
            assertTrue(new String(r.body(), StandardCharsets.UTF_8).contains("\"code\":3"));
            r = post(f.endpoint(), "application/json", ("{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{"
                    + "\"spanId\":\"zz\"}]}]}]}").getBytes(StandardCharsets.UTF_8));
            assertEquals(400, r.statusCode());
            r = post(f.endpoint(), "application/x-protobuf", new byte[] {1, 2, 3}, "Content-Encoding", "gzip");
            assertEquals(400, r.statusCode(), "not gzip");
            r = post(f.endpoint(), "text/plain", new byte[] {1});
            assertEquals(415, r.statusCode());
            r = post(f.endpoint().replace("/v1/logs", "/v1/traces"), "application/x-protobuf", new byte[0]);
            assertEquals(404, r.statusCode());
            r = post(f.endpoint(), "application/x-protobuf", new byte[0]);
            assertEquals(200, r.statusCode(), "an empty request is a valid, empty export");
        }
    }

    @Test
    void too_large_bodies_are_413_before_and_after_decompression() throws Exception {
        IngestSettings s = IngestFixtureAccess.settings(dir).withLimits(64L << 20, 1L << 30, 4096);
        try (var f = IngestFixtureAccess.open(dir, s)) {
            HttpResponse<byte[]> r = post(f.endpoint(), "application/x-protobuf", new byte[5000]);
            assertEquals(413, r.statusCode());
            // 1 MiB of zeros compresses to about 1 KiB: under the limit on the wire, far over it inflated.
            byte[] bomb = gzip(new byte[1 << 20]);
            assertTrue(bomb.length < 4096);
            r = post(f.endpoint(), "application/x-protobuf", bomb, "Content-Encoding", "gzip");
            assertEquals(413, r.statusCode());
        }
    }

    @Test
    void over_the_buffer_budget_is_429_with_retry_after() throws Exception {
        IngestSettings s = IngestFixtureAccess.settings(dir).withLimits(2048, 1L << 30, 1 << 20);
        try (var f = IngestFixtureAccess.open(dir, s)) {
            byte[] body = request(java.util.stream.IntStream.range(0, 200).mapToObj(
                    OtlpHttpReceiverTest::record).toList()).toByteArray();
            HttpResponse<byte[]> r = post(f.endpoint(), "application/x-protobuf", body);
            assertEquals(429, r.statusCode());
            assertEquals("1", r.headers().firstValue("Retry-After").orElseThrow());
            assertEquals(0, f.ingester().budget().used(), "the budget is returned");
        }
    }

    @Test
    void over_the_wal_bound_is_503_with_retry_after() throws Exception {
        // A WAL bound of 1 byte: the first request makes the log non-empty; until it is flushed, others wait.
        IngestSettings s = IngestFixtureAccess.settings(dir).withFlush(16L << 20, Duration.ofHours(1))
                .withLimits(64L << 20, 1, 1 << 20);
        try (var f = IngestFixtureAccess.open(dir, s)) {
            byte[] body = request(List.of(record(1))).toByteArray();
            assertEquals(200, post(f.endpoint(), "application/x-protobuf", body).statusCode());
            HttpResponse<byte[]> r = post(f.endpoint(), "application/x-protobuf", body);
            assertEquals(503, r.statusCode());
            assertTrue(r.headers().firstValue("Retry-After").isPresent());
        }
    }

    @Test
    void the_tenant_header_is_percent_encoded_utf8_and_raw_bytes_are_refused() throws Exception {
        try (var f = IngestFixtureAccess.open(dir)) {
            byte[] body = request(List.of(record(7))).toByteArray();
            assertTrue(rawPost(f.address(), "acm%C3%A9/eu".getBytes(StandardCharsets.US_ASCII), body)
                    .startsWith("HTTP/1.1 200"));
            Await.until("the UTF-8 tenant's row", Duration.ofSeconds(30), () -> f.count("acmé/eu") >= 1);
            // Raw UTF-8 on the wire, as curl sends it when given a non-ASCII header: refused, naming the header,
            // because a proxy may re-encode such bytes (HTTP defines header values as ASCII).
            String raw = rawPost(f.address(), "acmé/eu".getBytes(StandardCharsets.UTF_8), body);
            assertTrue(raw.startsWith("HTTP/1.1 400"), raw);
            assertTrue(raw.contains("X-Ourios-Tenant"), raw);
        }
    }

    /** Posts with the tenant header's bytes as given (the JDK client refuses non-ASCII header values). */
    private static String rawPost(InetSocketAddress a, byte[] tenantHeader, byte[] body) throws IOException {
        try (Socket sock = new Socket(a.getHostString(), a.getPort())) {
            sock.setSoTimeout(30_000);
            OutputStream out = sock.getOutputStream();
            out.write(("POST /v1/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\n"
                    + "Connection: close\r\nContent-Length: " + body.length + "\r\nX-Ourios-Tenant: ")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(tenantHeader);
            out.write("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            return new String(sock.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
