package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.ourios.server.auth.AuthMetrics;
import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.SweepSettings;
import dev.ourios.security.Authorizer;
import dev.ourios.security.Decision;
import dev.ourios.security.KeyRing;
import dev.ourios.security.KeysFileCodec;
import dev.ourios.security.KeysFileStore;
import dev.ourios.security.Scope;
import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.CompactionMetrics;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.ingest.IngestMetrics;
import dev.ourios.ingest.IngestSettings;
import dev.ourios.ingest.Ingester;
import dev.ourios.server.otlp.OtlpHttpReceiver;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics contract: {@code semconv/registry/metrics.yaml} (OpenTelemetry registry format) against what the Java
 * instruments really emit during a real sweep and real queries, collected with an in-memory reader. Fails when a
 * metric, unit, instrument kind, attribute key or attribute value differs, when an instrument is missing from either
 * side, or when a registry name breaks the OpenTelemetry naming rules.
 */
class SemconvRegistryTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** Dotted lower-case namespaces (snake_case inside a segment). */
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+");
    /** Units belong in the unit, not the name (the Prometheus exporter adds them back as suffixes). */
    private static final Set<String> UNIT_WORDS = Set.of("total", "seconds", "second", "ms", "millis",
            "milliseconds", "nanos", "bytes", "byte", "kb", "mb", "kib", "mib", "percent", "ratio", "count");
    /** UCUM case-sensitive units in use by OpenTelemetry, or a {annotation} for counts of things. */
    private static final Pattern UNIT = Pattern.compile("1|%|By|KiBy|MiBy|GiBy|s|ms|us|ns|Hz|Cel|\\{[a-z_]+\\}");
    /** Attributes defined by the OpenTelemetry semantic conventions themselves, which a registry may reference. */
    private static final Set<String> OTEL_ATTRIBUTES = Set.of("error.type", "http.response.status_code");

    @TempDir
    Path dir;

    record RegistryMetric(String name, String instrument, String unit, Set<String> attributes, Set<String> required) {
    }

    @Test
    void java_instruments_and_the_registry_agree() throws Exception {
        JsonNode groups = YAML.readTree(registry().toFile()).get("groups");
        Map<String, Set<String>> members = new HashMap<>();
        Set<String> declared = new HashSet<>(OTEL_ATTRIBUTES);
        Map<String, RegistryMetric> registry = new TreeMap<>();
        for (JsonNode g : groups) {
            if (g.get("type").asText().equals("attribute_group")) {
                for (JsonNode a : g.get("attributes")) {
                    declared.add(a.get("id").asText());
                    JsonNode type = a.get("type");
                    if (type.isObject()) {
                        Set<String> values = new TreeSet<>();
                        type.get("members").forEach(m -> values.add(m.get("value").asText()));
                        members.put(a.get("id").asText(), values);
                    }
                }
            } else if (g.get("type").asText().equals("metric")) {
                Set<String> attrs = new TreeSet<>();
                Set<String> required = new TreeSet<>();
                if (g.has("attributes")) {
                    for (JsonNode a : g.get("attributes")) {
                        attrs.add(a.get("ref").asText());
                        if (a.get("requirement_level").asText().equals("required")) {
                            required.add(a.get("ref").asText());
                        }
                    }
                }
                assertEquals("metric." + g.get("metric_name").asText(), g.get("id").asText(), "group id");
                registry.put(g.get("metric_name").asText(), new RegistryMetric(g.get("metric_name").asText(),
                        g.get("instrument").asText(), g.get("unit").asText(), attrs, required));
            }
        }
        for (RegistryMetric m : registry.values()) {
            assertNamingRules(m);
            for (String a : m.attributes()) {
                assertTrue(declared.contains(a), m.name() + " references undeclared attribute " + a);
            }
        }

        Map<String, MetricData> emitted = new TreeMap<>();
        for (MetricData d : runSweepAndQueries()) {
            String scope = d.getInstrumentationScopeInfo().getName();
            if (scope.equals(CompactionMetrics.METER) || scope.equals("ourios.query") || scope.equals("ourios.ingest")
                    || scope.equals(AuthMetrics.METER)) {
                emitted.put(d.getName(), d);
            }
        }
        assertEquals(registry.keySet(), emitted.keySet(), "metric names: registry vs Java instruments");
        for (MetricData d : emitted.values()) {
            RegistryMetric m = registry.get(d.getName());
            assertEquals(m.unit(), d.getUnit(), d.getName() + " unit");
            assertEquals(m.instrument(), instrument(d), d.getName() + " instrument");
            assertFalse(d.getDescription().isBlank(), d.getName() + " has a description");
            Set<String> seen = new TreeSet<>();
            for (PointData p : d.getData().getPoints()) {
                Attributes attrs = p.getAttributes();
                for (AttributeKey<?> k : attrs.asMap().keySet()) {
                    seen.add(k.getKey());
                    assertTrue(m.attributes().contains(k.getKey()), d.getName() + " emits undeclared " + k);
                    Set<String> allowed = members.get(k.getKey());
                    if (allowed != null) {
                        assertTrue(allowed.contains(String.valueOf(attrs.get(k))),
                                d.getName() + " " + k + "=" + attrs.get(k) + " not in " + allowed);
                    }
                }
                for (String r : m.required()) {
                    assertTrue(attrs.asMap().keySet().stream().anyMatch(k -> k.getKey().equals(r)),
                            d.getName() + " point without required " + r + ": " + attrs);
                }
            }
            assertEquals(m.attributes(), seen, d.getName() + ": every declared attribute is exercised");
        }
    }

    @Test
    void the_naming_rules_catch_bad_names() {
        assertThrows(AssertionError.class, () -> assertNamingRules(
                new RegistryMetric("ourios.compaction.requests.bytes", "counter", "By", Set.of(), Set.of())));
        assertThrows(AssertionError.class, () -> assertNamingRules(
                new RegistryMetric("ourios_compaction_sweeps_total", "counter", "{sweep}", Set.of(), Set.of())));
        assertThrows(AssertionError.class, () -> assertNamingRules(
                new RegistryMetric("ourios.query.duration", "histogram", "seconds", Set.of(), Set.of())));
        assertNamingRules(new RegistryMetric("ourios.query.row_groups", "counter", "{row_group}", Set.of(),
                Set.of()));
    }

    private static void assertNamingRules(RegistryMetric m) {
        assertTrue(NAME.matcher(m.name()).matches(), m.name() + ": dotted lower-case namespaces");
        String last = m.name().substring(m.name().lastIndexOf('.') + 1);
        assertFalse(UNIT_WORDS.contains(last) || UNIT_WORDS.stream().anyMatch(w -> last.endsWith("_" + w)),
                m.name() + ": no unit (or _total) in the name");
        assertTrue(UNIT.matcher(m.unit()).matches(), m.name() + ": unit '" + m.unit() + "' is not UCUM");
        assertTrue(Set.of("counter", "updowncounter", "histogram", "gauge").contains(m.instrument()),
                m.name() + ": instrument " + m.instrument());
    }

    private static String instrument(MetricData d) {
        MetricDataType t = d.getType();
        return switch (t) {
            case LONG_SUM -> d.getLongSumData().isMonotonic() ? "counter" : "updowncounter";
            case DOUBLE_SUM -> d.getDoubleSumData().isMonotonic() ? "counter" : "updowncounter";
            case HISTOGRAM, EXPONENTIAL_HISTOGRAM -> "histogram";
            default -> "gauge";
        };
    }

    /** Two tenants' hours compacted, queries answered and one query failing on a file that is not Parquet. */
    private List<MetricData> runSweepAndQueries() throws Exception {
        InMemoryMetricReader reader = InMemoryMetricReader.create();
        try (SdkMeterProvider meters = SdkMeterProvider.builder().registerMetricReader(reader).build()) {
            LocalObjectStore store = new LocalObjectStore(dir.resolve("s"));
            PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
            GenerateCommand.run(store, new GeneratorSpec(List.of("acme", "globex"),
                    Instant.parse("2026-11-01T10:00:00Z"), 1, 3, 200, GeneratorSpec.DEFAULT_SERVICES, 7, 0),
                    new Output(quiet, quiet));
            SweepReport report = CompactionWiring.sweepRunner(SweepSettings.of(store,
                    CompactionOptions.defaults(dir.resolve("scratch"))).withMeters(meters))
                    .sweep(PartitionFilter.all(), r -> { });
            assertEquals(2, report.count(PartitionResult.Result.COMMITTED), report.toString());

            QueryEngine engine = new QueryEngine(store, new TableLayout(store),
                    new TableReader(store, new ManifestCodec()), meters);
            List<Object> rows = new ArrayList<>();
            engine.run(Query.tenant("acme").service("checkout"), rows::add);
            Path broken = dir.resolve("s/data/tenant_id=broken/year=2026/month=11/day=01/hour=10");
            Files.createDirectories(broken);
            Files.writeString(broken.resolve("01a22900-0000-7000-8000-000000000001.parquet"), "not parquet");
            assertThrows(Exception.class, () -> engine.run(Query.tenant("broken"), rows::add));
            ingestWithOneRejection(store, meters);
            refuseRequests(meters);
            return new ArrayList<>(reader.collectAllMetrics());
        }
    }

    /**
     * An OTLP export through the receiver, one record refused, then a drain that flushes the WAL; before it, a WAL
     * segment left by an earlier process that cannot be flushed (a file where its tenant's directory must be) is
     * quarantined.
     */
    private void ingestWithOneRejection(LocalObjectStore store, SdkMeterProvider meters) throws Exception {
        IngestSettings settings = IngestSettings.defaults(new InetSocketAddress("127.0.0.1", 0), dir.resolve("wal"));
        var earlier = dev.ourios.ingest.wal.WriteAheadLog.open(settings.walDir(), 1L << 20,
                java.time.Duration.ofHours(1), dev.ourios.core.Uuid7.system(), s -> { },
                dev.ourios.ingest.wal.WalListener.NONE);
        earlier.append(new dev.ourios.ingest.wal.WalEntry("blocked", ExportLogsServiceRequest.newBuilder()
                .addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(ScopeLogs.newBuilder().addLogRecords(
                        io.opentelemetry.proto.logs.v1.LogRecord.newBuilder().setTimeUnixNano(1L))))
                .build().toByteArray())).get(30, java.util.concurrent.TimeUnit.SECONDS);
        earlier.close();
        Files.writeString(store.root().resolve("data/tenant_id=blocked"), "in the way");
        Ingester ingester = Ingester.open(settings, store, new IngestMetrics(meters));
        OtlpHttpReceiver receiver = new OtlpHttpReceiver(ingester);
        InetSocketAddress at = receiver.start();
        var good = io.opentelemetry.proto.logs.v1.LogRecord.newBuilder().setTimeUnixNano(1_785_000_000_000_000_000L)
                .build();
        var bad = good.toBuilder().setTraceId(com.google.protobuf.ByteString.copyFrom(new byte[3])).build();
        byte[] body = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(good).addLogRecords(bad))).build().toByteArray();
        HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + at.getPort() + "/v1/logs")).timeout(java.time.Duration.ofSeconds(30))
                .header("Content-Type", "application/x-protobuf").POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        receiver.stop(java.time.Duration.ofSeconds(10));
        assertTrue(ingester.drain(java.time.Duration.ofSeconds(60)), "drained");
    }

    /** A request without a key and one with an unknown key, against a real keys file. */
    private void refuseRequests(SdkMeterProvider meters) {
        KeysFileStore keys = new KeysFileStore(dir.resolve("keys.json"), new KeysFileCodec());
        keys.update(f -> f);
        Authorizer auth = Authorizer.withKeys(KeyRing.open(keys.file(), Clock.systemUTC()), new AuthMetrics(meters));
        assertTrue(auth.authorize(List.of(), List.of("acme"), Scope.QUERY) instanceof Decision.Denied);
        assertTrue(auth.authorize(List.of("Bearer nobody"), List.of(), Scope.INGEST) instanceof Decision.Denied);
    }

    private static Path registry() {
        Path base = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
        Path p = base.resolveSibling("semconv").resolve("registry").resolve("metrics.yaml");
        assertTrue(Files.isRegularFile(p), "registry at " + p);
        return p;
    }
}
