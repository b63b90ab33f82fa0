package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import dev.ourios.core.gen.GeneratorSpec;
import dev.ourios.core.gen.LogGenerator;
import dev.ourios.query.LiveFiles;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.testkit.SparkChild;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opt-in ({@code -Dourios.spark=true}, which also builds module ourios-spark): Spark 4.0 in local mode with two
 * threads, in a child JVM, against a local store holding a compacted generation with late ingest files beside it.
 *
 * <p>Spark's own Parquet reader over the live set ({@code ourios files}, pruned to the query's tenant and hours)
 * returns, for seeded filters, the same rows as our query engine with every value equal (time columns as
 * nanosecond integers); the scan reads only the files of the pruned partitions and pushes the filters into the
 * reader. The Iceberg view through Iceberg's Spark runtime never returns a changed value: it either refuses the
 * read, naming the type it cannot read, or returns exactly the rows written.
 */
class SparkReadsStoreTest {
    static final Instant START = Instant.parse("2026-05-04T06:00:00Z");
    static final List<String> TENANTS = List.of("acme", "globex");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
    void sparkReadsTheLiveSetValueForValueAndRefusesRatherThanMisreadsTheView() throws Exception {
        assumeTrue(Boolean.getBoolean("ourios.spark"), "opt-in: -Dourios.spark=true");
        SparkChild spark = SparkChild.fromSystemProperties("1g").orElseThrow(() -> new AssertionError(
                "-Dourios.spark=true but the Spark reader is not built: run with -pl ourios-spark,ourios-iceberg -am"));
        long seed = System.nanoTime();
        System.out.println("SparkReadsStoreTest seed=" + seed);
        Random rnd = new Random(seed);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(TENANTS, START, 3, 3, 400, seed));
        List<LogRecord> all = new ArrayList<>();
        try (ViewStore vs = new ViewStore(dir.resolve("store"))) {
            for (String t : TENANTS) {
                for (int h = 0; h < 3; h++) {
                    for (int f = 0; f < 3; f++) {
                        List<LogRecord> file = gen.file(t, h, f);
                        vs.ingest(gen.partition(t, h), file);
                        all.addAll(file);
                    }
                }
            }
            vs.compact(dir.resolve("scratch"));
            LogGenerator late = new LogGenerator(GeneratorSpec.of(TENANTS, START, 3, 1, 150, seed + 1));
            for (String t : TENANTS) {
                List<LogRecord> file = late.file(t, 1, 0);
                vs.ingest(gen.partition(t, 1), file);
                all.addAll(file);
            }
            vs.sync();

            String tenant = TENANTS.get(rnd.nextInt(TENANTS.size()));
            LogRecord pick = all.stream().filter(r -> r.tenantId().equals(tenant) && r.serviceName() != null)
                    .skip(rnd.nextInt(200)).findFirst().orElseThrow();
            Instant hour1 = START.plusSeconds(3600);
            Instant from = hour1.plusSeconds(rnd.nextInt(3000));
            List<Case> cases = List.of(
                    new Case("tenant", Query.tenant(tenant)),
                    new Case("one hour", Query.tenant(tenant).window(hour1, hour1.plusSeconds(3600))),
                    new Case("service and ten minutes", Query.tenant(tenant).service(pick.serviceName())
                            .window(from, from.plusSeconds(600))),
                    new Case("severity", Query.tenant(tenant).severityMin(List.of(9, 13, 17).get(rnd.nextInt(3)))),
                    new Case("trace id", Query.tenant(tenant).traceId(pick.traceId())));
            LiveFiles live = new LiveFiles(vs.store, vs.layout, vs.tables);
            int tenantFiles = live.paths(tenant, Optional.empty(), Optional.empty()).size();
            List<String> job = new ArrayList<>(List.of("emit\trows"));
            for (Case c : cases) {
                List<String> paths = live.paths(tenant, c.query().from(), c.query().to());
                job.add("live\t" + c.name() + "\t" + sparkWhere(c.query()) + "\t" + String.join(",", paths));
            }
            job.add("view\tview\t" + vs.location.root() + "\ticeberg.logs\ttrue");
            Map<String, SparkChild.Result> results = spark.run(job, dir.resolve("spark"), Duration.ofMinutes(10));

            QueryEngine engine = new QueryEngine(vs.store, vs.layout, vs.tables, MeterProvider.noop());
            for (Case c : cases) {
                List<String> ours = new ArrayList<>();
                engine.run(c.query(), r -> ours.add(fingerprint(r)));
                SparkChild.Result r = results.get(c.name());
                String msg = c.name() + " (" + c.query() + ")";
                assertTrue(r != null && r.refusal().isEmpty(), msg + ": " + r);
                assertEquals(ours.size(), r.rows(), msg + ": rows");
                assertEquals(ours.stream().sorted().toList(), r.fingerprints().stream().sorted().toList(),
                        msg + ": values");
                int planned = live.paths(tenant, c.query().from(), c.query().to()).size();
                assertEquals(planned, r.filesRead(), msg + ": files read");
                if (c.query().from().isPresent()) {
                    assertTrue(planned < tenantFiles, msg + ": the window prunes partitions (" + planned + " of "
                            + tenantFiles + " files)");
                }
                assertTrue(r.pushedFilters().contains(c.pushedColumn()), msg + ": pushed " + r.pushedFilters());
                System.out.println(msg + ": " + r.rows() + " rows, " + r.filesRead() + " of " + tenantFiles
                        + " files, pushed " + r.pushedFilters());
            }

            SparkChild.Result view = results.get("view");
            if (view.refusal().isPresent()) {
                assertTrue(view.refusal().get().contains("timestamptz_ns"), "refused for another reason: "
                        + view.refusal().get());
                System.out.println("Iceberg view through Spark: refused: " + view.refusal().get());
            } else {
                assertEquals(all.stream().map(SparkReadsStoreTest::fingerprint).sorted().toList(),
                        view.fingerprints().stream().sorted().toList(), "the Iceberg view through Spark");
            }
        }
    }

    record Case(String name, Query query) {
        /** A column whose filter the scan must push into the Parquet reader. */
        String pushedColumn() {
            if (query.traceId().isPresent()) {
                return "trace_id";
            }
            if (query.severityMin().isPresent()) {
                return "severity_number";
            }
            return query.from().isPresent() ? "effective_time_unix_nano" : "tenant_id";
        }
    }

    /** The query's filters in Spark SQL over the files' columns (times are nanosecond integers in Spark). */
    static String sparkWhere(Query q) {
        List<String> and = new ArrayList<>();
        and.add("tenant_id = '" + q.tenant() + "'");
        q.from().ifPresent(f -> and.add("effective_time_unix_nano >= " + q.fromNanos()));
        q.to().ifPresent(t -> and.add("effective_time_unix_nano < " + q.toNanos()));
        q.service().ifPresent(s -> and.add("`resource.service.name` = '" + s + "'"));
        q.severityMin().ifPresent(n -> and.add("severity_number >= " + n));
        q.traceId().ifPresent(id -> and.add("trace_id = unhex('" + Bytes.hex(id) + "')"));
        return String.join(" AND ", and);
    }

    /** The row as module ourios-spark's RowFingerprint prints what Spark read. */
    static String fingerprint(LogRecord r) {
        StringBuilder b = new StringBuilder();
        field(b, r.tenantId());
        field(b, Integer.toUnsignedLong(r.templateVersion()));
        field(b, r.timeUnixNano());
        field(b, r.observedTimeUnixNano());
        field(b, r.severityNumber());
        field(b, r.severityText());
        field(b, r.scopeName());
        field(b, r.scopeVersion());
        field(b, r.attributes());
        field(b, Integer.toUnsignedLong(r.droppedAttributesCount()));
        field(b, r.resourceAttributes());
        field(b, Bytes.hex(r.traceId()));
        field(b, Bytes.hex(r.spanId()));
        field(b, Integer.toUnsignedLong(r.flags()));
        field(b, r.eventName());
        field(b, r.bodyKind());
        field(b, Bytes.hex(r.body()));
        StringBuilder params = new StringBuilder();
        r.params().forEach(p -> params.append(p.typeTag()).append(':').append(String.valueOf(Bytes.hex(p.value())))
                .append(','));
        field(b, params);
        StringBuilder separators = new StringBuilder();
        r.separators().forEach(s -> separators.append(String.valueOf(Bytes.hex(s))).append(','));
        field(b, separators);
        field(b, r.confidence());
        field(b, r.lossyFlag());
        field(b, r.scopeAttributes());
        field(b, r.resourceSchemaUrl());
        field(b, r.scopeSchemaUrl());
        b.append(r.serviceName());
        return b.toString();
    }

    private static void field(StringBuilder b, Object value) {
        b.append(value).append('|');
    }
}
