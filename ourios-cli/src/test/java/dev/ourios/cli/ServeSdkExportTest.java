package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.BodyKind;
import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.query.LiveFiles;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.logs.OtlpGrpcLogRecordExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The real OpenTelemetry Java SDK exports to an {@code ourios serve} child process through a
 * {@code BatchLogRecordProcessor}, over each transport: {@code OtlpHttpLogRecordExporter} (protobuf) and
 * {@code OtlpGrpcLogRecordExporter} (gzip, the tenant percent-encoded in {@code x-ourios-tenant} metadata). After
 * SIGTERM (which flushes the write-ahead log) every record is found exactly once, counted by DuckDB over the live
 * files and read back through the query engine with its attributes, resource, scope, ids, severity and body as sent,
 * under the tenant the request named.
 */
class ServeSdkExportTest {
    @TempDir
    Path dir;

    /** How the SDK reaches the server. */
    enum Transport {
        HTTP {
            @Override
            LogRecordExporter exporter(DaemonProcess serve) throws Exception {
                return OtlpHttpLogRecordExporter.builder()
                        .setEndpoint("http://127.0.0.1:" + serve.ingestPort() + "/v1/logs")
                        .addHeader("X-Ourios-Tenant", "acme/eu").setTimeout(Duration.ofSeconds(30)).build();
            }
        },
        GRPC {
            @Override
            LogRecordExporter exporter(DaemonProcess serve) throws Exception {
                return OtlpGrpcLogRecordExporter.builder().setEndpoint("http://127.0.0.1:" + serve.grpcPort())
                        .setCompression("gzip").addHeader("x-ourios-tenant", "acme%2Feu")
                        .setTimeout(Duration.ofSeconds(30)).build();
            }
        };

        abstract LogRecordExporter exporter(DaemonProcess serve) throws Exception;
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void every_record_the_sdk_exports_is_queryable_exactly_once_and_intact(Transport transport) throws Exception {
        int n = 2_000;
        String trace = "5b8efff798038103d269b633813fc60c";
        String span = "eee19b7ec3c1b174";
        Instant base = Instant.parse("2026-11-01T10:15:00Z");
        Path store = Files.createDirectories(dir.resolve("store"));
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_INGEST_FLUSH_INTERVAL", "200ms"), "serve", "--store", store.toString(),
                "--http", "127.0.0.1:0")) {
            LogRecordExporter exporter = transport.exporter(serve);
            SdkLoggerProvider provider = SdkLoggerProvider.builder()
                    .setResource(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "checkout",
                            AttributeKey.stringKey("deployment.environment"), "test")))
                    .addLogRecordProcessor(BatchLogRecordProcessor.builder(exporter).setMaxExportBatchSize(256)
                            .setScheduleDelay(Duration.ofMillis(50)).build())
                    .build();
            Logger logger = provider.loggerBuilder("dev.ourios.test").setInstrumentationVersion("1.2.3").build();
            Context ctx = Context.root().with(Span.wrap(SpanContext.create(trace, span, TraceFlags.getSampled(),
                    TraceState.getDefault())));
            for (int i = 0; i < n; i++) {
                logger.logRecordBuilder()
                        .setTimestamp(base.plusMillis(i))
                        .setObservedTimestamp(base.plusMillis(i + 1))
                        .setSeverity(i % 2 == 0 ? Severity.WARN : Severity.ERROR)
                        .setSeverityText(i % 2 == 0 ? "WARN" : "ERROR")
                        .setBody("order " + i + " failed")
                        .setAttribute(AttributeKey.longKey("seq"), (long) i)
                        .setAttribute(AttributeKey.stringKey("user"), "u" + (i % 7))
                        .setContext(ctx)
                        .emit();
            }
            CompletableResultCode flushed = provider.forceFlush().join(60, TimeUnit.SECONDS);
            assertTrue(flushed.isSuccess(), "the SDK's export succeeded");
            assertTrue(provider.shutdown().join(10, TimeUnit.SECONDS).isSuccess(), "the SDK shut down");
            // Every export was answered with success, so every record is in the WAL; SIGTERM flushes it to the store.
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }

        try (LocalObjectStore s = new LocalObjectStore(store)) {
            TableReader tables = new TableReader(s, new ManifestCodec());
            assertEquals(Map.of(1L, (long) n), duckDbCopies(new LiveFiles(s, new TableLayout(s), tables)
                    .paths("acme/eu", Optional.empty(), Optional.empty())), "every record exactly once");
            QueryEngine engine = new QueryEngine(s, new TableLayout(s), tables, MeterProvider.noop());
            List<LogRecord> rows = engine.collect(Query.tenant("acme/eu")).rows();
            assertEquals(n, rows.size(), "exactly once");
            Map<Long, LogRecord> bySeq = new HashMap<>();
            for (LogRecord r : rows) {
                long seq = Long.parseLong(AttributesJson.decode(r.attributes()).get(0).value() instanceof
                        dev.ourios.core.json.AnyValue.IntValue iv ? Long.toString(iv.value()) : "-1");
                assertTrue(bySeq.put(seq, r) == null, "seq " + seq + " twice");
            }
            for (int i = 0; i < n; i++) {
                LogRecord r = bySeq.get((long) i);
                assertTrue(r != null, "seq " + i + " missing");
                assertEquals("acme/eu", r.tenantId());
                assertEquals(base.plusMillis(i).toEpochMilli() * 1_000_000L, r.timeUnixNano());
                assertEquals(base.plusMillis(i + 1).toEpochMilli() * 1_000_000L, r.observedTimeUnixNano());
                assertEquals(i % 2 == 0 ? Severity.WARN.getSeverityNumber() : Severity.ERROR.getSeverityNumber(),
                        r.severityNumber());
                assertEquals(i % 2 == 0 ? "WARN" : "ERROR", r.severityText());
                assertEquals(BodyKind.STRING, r.bodyKind());
                assertEquals("order " + i + " failed", new String(r.body(), StandardCharsets.UTF_8));
                assertEquals("[{\"key\":\"seq\",\"value\":{\"intValue\":\"" + i + "\"}},{\"key\":\"user\","
                        + "\"value\":{\"stringValue\":\"u" + (i % 7) + "\"}}]", r.attributes());
                assertArrayEquals(HexFormat.of().parseHex(trace), r.traceId());
                assertArrayEquals(HexFormat.of().parseHex(span), r.spanId());
                assertEquals(1, r.flags());
                assertEquals("checkout", r.serviceName());
                assertTrue(r.resourceAttributes().contains("{\"key\":\"deployment.environment\",\"value\":"
                        + "{\"stringValue\":\"test\"}}"), r.resourceAttributes());
                assertEquals("dev.ourios.test", r.scopeName());
                assertEquals("1.2.3", r.scopeVersion());
            }
        }
    }

    /** DuckDB over the given files: for each number of copies, how many distinct records (by body) have it. */
    private static Map<Long, Long> duckDbCopies(List<String> paths) throws Exception {
        assertTrue(!paths.isEmpty(), "no live files");
        String list = paths.stream().map(p -> "'" + p + "'").collect(Collectors.joining(",", "[", "]"));
        Properties props = new Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        Map<Long, Long> out = new HashMap<>();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:", props);
                Statement st = duck.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*), copies FROM (SELECT body, count(*) AS copies FROM "
                        + "read_parquet(" + list + ") GROUP BY body) GROUP BY copies")) {
            while (rs.next()) {
                out.put(rs.getLong(2), rs.getLong(1));
            }
        }
        return out;
    }
}
