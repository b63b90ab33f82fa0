package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Retention;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.QueryEngine;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestKeys;
import dev.ourios.testkit.SparkChild;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opt-in ({@code -Dourios.spark=true}, see {@link SparkReadsStoreTest}): Spark reads the Iceberg view (its
 * {@code long} form) of a rolled-up store exactly as our engine does: day files under the day spec, a covered
 * hour's late file beside its day file, a voided cover's hour from its own files with its rows in the day file
 * hidden by a position delete, and a covered hour expired by retention hidden the same way. Seeded filters (tenant,
 * an hour, a service in ten minutes, a severity, a trace id) give the same rows, and a window reads fewer files than
 * the table holds.
 */
class SparkReadsRolledUpViewTest {
    static final Instant START = Instant.parse("2026-05-04T06:00:00Z");
    static final List<String> TENANTS = List.of("acme", "globex");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
    void sparkReadsTheViewOfARolledUpStoreAsOurEngineDoes() throws Exception {
        SparkChild spark = SparkAgreement.sparkOrSkip("ourios-spark,ourios-iceberg");
        long seed = SparkAgreement.seed("SparkReadsRolledUpViewTest");
        Random rnd = new Random(seed);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(TENANTS, START, 4, 2, 300, seed));
        try (ViewStore vs = new ViewStore(dir.resolve("store"))) {
            for (String t : TENANTS) {
                for (int h = 0; h < 4; h++) {
                    for (int f = 0; f < 2; f++) {
                        vs.ingest(gen.partition(t, h), gen.file(t, h, f));
                    }
                }
            }
            vs.compact(dir.resolve("scratch"), o -> o.withRollup(true));
            LogGenerator late = new LogGenerator(GeneratorSpec.of(TENANTS, START, 4, 1, 120, seed + 1));
            for (String t : TENANTS) {
                vs.ingest(gen.partition(t, 1), late.file(t, 1, 0));
            }
            // A voided cover: an hour commit on top of it.
            PartitionKey voided = gen.partition("acme", 2);
            long g = vs.tables.hourSnapshot(voided).generation();
            Manifest current = vs.tables.readManifest(voided, g);
            String key = ManifestKeys.key(voided, g + 1);
            assertTrue(vs.store.putIfAbsent(key, new ManifestCodec().encode(key,
                    new Manifest(Manifest.FORMAT, g + 1, current.files(), current.retired(), null))));
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
