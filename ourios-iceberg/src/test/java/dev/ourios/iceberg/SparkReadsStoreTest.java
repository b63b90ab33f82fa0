package dev.ourios.iceberg;


import dev.ourios.core.LogRecord;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.LiveFiles;
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
        SparkChild spark = SparkAgreement.sparkOrSkip("ourios-spark,ourios-iceberg");
        long seed = SparkAgreement.seed("SparkReadsStoreTest");
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
            vs.form = ViewForm.LONG; // the view's form Spark reads (storage.md section 10.1)
            vs.sync();

            String tenant = TENANTS.get(rnd.nextInt(TENANTS.size()));
            List<LogRecord> tenantRows = all.stream().filter(r -> r.tenantId().equals(tenant)).toList();
            List<SparkAgreement.Case> cases = SparkAgreement.cases(rnd, tenant, tenantRows, START.plusSeconds(3600));
            LiveFiles live = new LiveFiles(vs.store, vs.layout, vs.tables);
            int tenantFiles = live.paths(tenant, Optional.empty(), Optional.empty()).size();
            List<String> job = new ArrayList<>(List.of("emit\trows"));
            for (SparkAgreement.Case c : cases) {
                List<String> paths = live.paths(tenant, c.query().from(), c.query().to());
                job.add("live\t" + c.name() + "\t" + SparkAgreement.where(c.query()) + "\t"
                        + String.join(",", paths));
                job.add("view\tview: " + c.name() + "\t" + vs.location.root() + "\ticeberg.logs\t"
                        + SparkAgreement.where(c.query()));
            }
            job.add("view\tview\t" + vs.location.root() + "\ticeberg.logs\ttrue");
            Map<String, SparkChild.Result> results = spark.run(job, dir.resolve("spark"), Duration.ofMinutes(10));

            QueryEngine engine = new QueryEngine(vs.store, vs.layout, vs.tables, MeterProvider.noop());
            for (SparkAgreement.Case c : cases) {
                List<String> ours = new ArrayList<>();
                engine.run(c.query(), r -> ours.add(SparkAgreement.fingerprint(r)));
                int planned = live.paths(tenant, c.query().from(), c.query().to()).size();
                SparkAgreement.assertAgrees(c, results.get(c.name()), ours, planned, tenantFiles);
                SparkAgreement.assertViewAgrees(c, results.get("view: " + c.name()), ours, planned,
                        (int) results.get("view").filesRead());
            }
            SparkAgreement.assertReadsExactly(results.get("view"),
                    all.stream().map(SparkAgreement::fingerprint).toList());
        }
    }
}
