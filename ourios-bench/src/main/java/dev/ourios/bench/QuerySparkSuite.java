package dev.ourios.bench;

import dev.ourios.core.LogRecord;
import dev.ourios.iceberg.IcebergView;
import dev.ourios.iceberg.IcebergWiring;
import dev.ourios.iceberg.SyncResult;
import dev.ourios.iceberg.ViewForm;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.ReadSide;
import dev.ourios.query.QueryStats;
import dev.ourios.testkit.SparkChild;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The four queries of {@link QueryDuckDbSuite} on the same live set, through ours, DuckDB (2 threads) and Spark
 * 4.0 in local mode with two threads (module ourios-spark, in a child JVM: Spark's Parquet reader over the live
 * files, times as nanosecond integers), plus the time of an Iceberg sync of the store from nothing. Spark reads
 * the live set, not the Iceberg view, whose files Iceberg's Spark readers refuse (docs/operations.md); the suite
 * records that refusal. All three must return the same row count. Opt-in: needs ourios-spark built
 * ({@code mvn -Dourios.spark=true …}); {@code ourios-bench.sh} passes its class path.
 */
public final class QuerySparkSuite implements Suite {
    /** The suffix of a query's name for its read through the Iceberg view. */
    private static final String VIEW = " (iceberg view)";

    @Override
    public String name() {
        return "query-spark";
    }

    record Case(String name, Query ours, String duckWhere, String sparkWhere) {
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        SparkChild spark = SparkChild.fromSystemProperties("2g").orElseThrow(() -> new IOException(
                "query-spark needs the Spark reader: build it with mvn -B -o -q -Dourios.spark=true -DskipTests "
                        + "package -pl ourios-spark,ourios-bench -am, then run ./ourios-bench.sh query-spark"));
        BenchOptions o = ctx.options();
        Fixture before = ctx.fixtures().demo(32,
                Fixtures.demoRowsFor((long) (Rfc0036Suite.FULL_BYTES * o.scale()), 32), 4);
        Fixture live = Partitions.compacted(ctx.fixtures(), before, "query-duckdb-compacted").fixture();
        LogRecord probe = QueryDuckDbSuite.middleRowWithTrace(live);
        Instant from = Fixtures.HOUR.plusSeconds(1800);
        Instant to = from.plusSeconds(30);
        Query tenant = Query.tenant(Fixtures.TENANT);
        String trace = HexFormat.of().formatHex(probe.traceId());
        List<Case> cases = List.of(
                new Case("service + 30 s window", tenant.service("checkout").window(from, to),
                        "\"resource.service.name\" = 'checkout' AND effective_time_unix_nano >= '" + from
                                + "'::TIMESTAMPTZ_NS AND effective_time_unix_nano < '" + to + "'::TIMESTAMPTZ_NS",
                        "`resource.service.name` = 'checkout' AND effective_time_unix_nano >= " + nanos(from)
                                + " AND effective_time_unix_nano < " + nanos(to)),
                new Case("trace id", tenant.traceId(probe.traceId()), "trace_id = from_hex('" + trace + "')",
                        "trace_id = unhex('" + trace + "')"),
                new Case("template id", tenant.templateId(probe.templateId()), "template_id = " + probe.templateId(),
                        "template_id = " + probe.templateId()),
                new Case("severity >= 17 (ERROR+)", tenant.severityMin(17), "severity_number >= 17",
                        "severity_number >= 17"));
        int warmups = ctx.scaled(5, 1);
        int iterations = ctx.scaled(20, 3);
        SuiteReport.Builder report = new SuiteReport.Builder(name(), o.command()).shape(before.describe())
                .shape("live set: " + live.describe() + " (one sweep of the partition above)");

        // The fixture is reused across runs: its view is deleted so each run times a sync from nothing.
        deleteTree(live.root().resolve("iceberg"));
        IcebergView view = IcebergWiring.view(live.store(), live.root().toString());
        ctx.log().accept("query-spark: iceberg sync of " + view.tableUri());
        SyncResult sync = IcebergWiring.sync(live.store(), view, Clock.systemUTC(), ViewForm.LONG).sync();
        report.note(String.format("Iceberg sync (view rebuilt from nothing: %d file(s), %d partition(s)): %.0f ms",
                sync.filesAdded(), sync.partitionsChanged(), sync.elapsed().toNanos() / 1e6));

        List<String> job = new ArrayList<>(List.of("rounds\t" + warmups + "\t" + iterations, "emit\tcount"));
        String paths = live.paths().stream().map(p -> p.toAbsolutePath().toString()).collect(Collectors.joining(","));
        cases.forEach(k -> job.add("live\t" + k.name() + "\t" + k.sparkWhere() + "\t" + paths));
        cases.forEach(k -> job.add("view\t" + k.name() + VIEW + "\t" + view.location().root() + "\ticeberg.logs\t"
                + "tenant_id = '" + Fixtures.TENANT + "' AND " + k.sparkWhere()));
        job.add("view\ticeberg view\t" + view.location().root() + "\ticeberg.logs\ttrue");
        ctx.log().accept("query-spark: Spark local[2]: " + warmups + " warm-up and " + iterations + " measured rounds per query");
        Map<String, SparkChild.Result> sparkResults = spark.run(job, o.workDir().resolve("spark"),
                Duration.ofMinutes(30));

        QueryEngine engine = ReadSide.over(live.store()).queryEngine(MeterProvider.noop()); // as `ourios serve`'s
        QuietStores.await(live.store());
        try (Connection c = DuckDbContender.connect(); Statement s = c.createStatement()) {
            s.execute("SET threads=2");
            for (Case k : cases) {
                String sql = "SELECT * FROM read_parquet(" + DuckDbContender.list(live) + ") WHERE " + k.duckWhere();
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    OursAgainstDuckDb.Timed t = OursAgainstDuckDb.time(engine, k.ours(), ps, warmups, iterations);
                    long[] rows = {t.oursRows(), t.duckRows()};
                    QueryStats stats = t.stats();
                    SparkChild.Result sr = sparkResults.get(k.name());
                    SparkChild.Result sv = sparkResults.get(k.name() + VIEW);
                    if (sr == null || sr.refusal().isPresent() || sv == null || sv.refusal().isPresent()) {
                        throw new IllegalStateException(k.name() + ": Spark did not read the live set or the view: "
                                + sr + ", " + sv);
                    }
                    if (rows[0] != rows[1] || rows[0] != sr.rows() || rows[0] != sv.rows()) {
                        throw new IllegalStateException(k.name() + ": ours returned " + rows[0] + " rows, DuckDB "
                                + rows[1] + ", Spark " + sr.rows() + ", Spark over the view " + sv.rows());
                    }
                    Samples a = t.ours();
                    Samples b = t.duck();
                    Samples sp = new Samples(sr.millis());
                    report.row(row(k.name(), "ours", rows[0], a));
                    report.row(row(k.name(), "duckdb-2t", rows[1], b));
                    Samples spv = new Samples(sv.millis());
                    report.row(row(k.name(), "spark-local[2]", sr.rows(), sp));
                    report.row(row(k.name(), "spark-local[2] iceberg view", sv.rows(), spv));
                    report.note(String.format("%s: median / ours median: DuckDB %.2f, Spark %.2f, Spark over the "
                            + "view %.2f (> 1: ours is faster); Spark pushed %s", k.name(), b.median() / a.median(),
                            sp.median() / a.median(), spv.median() / a.median(), sr.pushedFilters()));
                }
            }
        }
        SparkChild.Result viewRead = sparkResults.get("iceberg view");
        report.note("Spark over the Iceberg view: " + viewRead.refusal().map(r -> "refused (" + r + ")")
                .orElse(viewRead.rows() + " rows"));
        report.note("Spark: local[2] in a child JVM (-Xmx2g), `spark.read.parquet(live files).where(…)` and the "
                + "Iceberg view in its long form (`spark.table(…).where(tenant and …)`, Iceberg's row reader), every row "
                + "brought to the driver (toLocalIterator), times as nanosecond integers (nanosAsLong); its "
                + "rounds run after ours and DuckDB's, not alternating with them. Ours and DuckDB as in query-duckdb. "
                + "Warm: " + warmups + " warm-up rounds, then " + iterations + " measured.");
        return report.build();
    }

    private static void deleteTree(java.nio.file.Path dir) throws IOException {
        if (!java.nio.file.Files.exists(dir)) {
            return;
        }
        try (var walk = java.nio.file.Files.walk(dir)) {
            for (java.nio.file.Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.delete(p);
            }
        }
    }

    private static long nanos(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
    }

    private static Map<String, Object> row(String query, String engine, long rows, Samples ms) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("query", query);
        row.put("engine", engine);
        row.put("rows", rows);
        row.put("median ms", ms.median());
        row.put("min ms", ms.min());
        row.put("max ms", ms.max());
        return row;
    }
}
