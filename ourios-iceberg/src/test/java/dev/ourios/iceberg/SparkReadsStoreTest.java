package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.Retention;
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

    /**
     * Spark reads the Iceberg view (its {@code long} form) of a rolled-up store exactly as our engine does: day files
     * under the day spec, a covered hour's late file beside its day file, a voided cover's hour from its own files
     * with its rows in the day file hidden by a position delete, and a covered hour expired by retention hidden the
     * same way. Seeded filters (tenant, an hour, a service in ten minutes, a severity, a trace id) give the same rows
     * for both tenants, and a window reads fewer files than the table holds.
     */
    @Test
    @Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
    void sparkReadsTheViewOfARolledUpStoreAsOurEngineDoes() throws Exception {
        SparkChild spark = SparkAgreement.sparkOrSkip("ourios-spark,ourios-iceberg");
        long seed = SparkAgreement.seed("SparkReadsStoreTest rolled up");
        Random rnd = new Random(seed);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(TENANTS, START, 4, 2, 300, seed));
        try (ViewStore vs = new ViewStore(dir.resolve("store"))) {
            vs.ingestAll(gen, TENANTS, 4, 2);
            vs.compact(dir.resolve("scratch"), o -> o.withRollup(true));
            LogGenerator late = new LogGenerator(GeneratorSpec.of(TENANTS, START, 4, 1, 120, seed + 1));
            for (String t : TENANTS) {
                vs.ingest(gen.partition(t, 1), late.file(t, 1, 0));
            }
            vs.voidCover(gen.partition("acme", 2)); // a voided cover
            // The first hour of each day expired by retention.
            Duration keep = Duration.between(START.plusSeconds(3600), ViewStore.LATER.instant());
            vs.compact(dir.resolve("scratch"), o -> o.withRetention(Retention.of(keep)));
            vs.form = ViewForm.LONG;
            vs.sync();
            int tableFiles = IcebergView.currentFiles(vs.table(), vs.location).size();
            assertTrue(!IcebergView.currentDeletes(vs.table(), vs.location, vs.view.layout(), SyncScope.all())
                    .isEmpty(), "the view hides dead rows");

            QueryEngine engine = new QueryEngine(vs.store, vs.layout, vs.tables, MeterProvider.noop());
            List<SparkAgreement.Case> cases = new ArrayList<>();
            for (String tenant : TENANTS) { // acme holds the voided cover, both the expired hour
                List<LogRecord> tenantRows = new ArrayList<>();
                engine.run(dev.ourios.query.Query.tenant(tenant), tenantRows::add);
                SparkAgreement.cases(rnd, tenant, tenantRows, START.plusSeconds(7200))
                        .forEach(c -> cases.add(new SparkAgreement.Case(tenant + ": " + c.name(), c.query())));
            }
            List<String> job = new ArrayList<>(List.of("emit\trows"));
            for (SparkAgreement.Case c : cases) {
                job.add("view\t" + c.name() + "\t" + vs.location.root() + "\ticeberg.logs\t"
                        + SparkAgreement.where(c.query()));
            }
            Map<String, SparkChild.Result> results = spark.run(job, dir.resolve("spark"), Duration.ofMinutes(10));
            for (SparkAgreement.Case c : cases) {
                List<String> ours = new ArrayList<>();
                engine.run(c.query(), r -> ours.add(SparkAgreement.fingerprint(r)));
                SparkChild.Result r = results.get(c.name());
                String msg = c.name() + " (" + c.query() + ")";
                assertTrue(r != null && r.refusal().isEmpty(), msg + ": " + r);
                assertEquals(ours.stream().sorted().toList(), r.fingerprints().stream().sorted().toList(),
                        msg + ": values");
                if (c.query().from().isPresent()) {
                    assertTrue(r.filesRead() < tableFiles, msg + ": the window prunes (" + r.filesRead() + " of "
                            + tableFiles + " files)");
                }
                System.out.println(msg + ": " + r.rows() + " rows, " + r.filesRead() + " of " + tableFiles + " files");
            }
        }
    }
}
