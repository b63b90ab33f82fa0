package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.DeletionSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Retention;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.Query;
import dev.ourios.table.DayPartition;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The view of a rolled-up store (storage.md sections 4.15 and 10) reads exactly the store's live rows, through
 * Iceberg's own reader with its delete filter: day files under the day spec, late files of a covered hour beside
 * them, a voided cover's hour from its own files with its rows in the day file hidden by a position delete, a
 * covered hour expired by retention hidden the same way, and a deletion that rewrites the day dropping the old day
 * file and its delete. Every stage is checked against a model of the rows kept by the test, against our query
 * engine's counts for seeded random windows, and against a view rebuilt from nothing.
 */
class IcebergRollupViewTest {
    static final Instant START = Instant.parse("2026-03-10T10:00:00Z");
    static final List<String> TENANTS = List.of("acme", "other/tenant");
    static final int HOURS = 5;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(ViewForm.class)
    void theViewOfARolledUpStoreReadsExactlyItsLiveRows(ViewForm form) throws Exception {
        long seed = System.nanoTime();
        System.out.println("IcebergRollupViewTest seed=" + seed + " form=" + form);
        Random rnd = new Random(seed);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(TENANTS, START, HOURS, 2, 150, seed));
        try (ViewStore vs = new ViewStore(dir.resolve("store"))) {
            vs.form = form;
            Map<String, List<LogRecord>> rows = vs.ingestAll(gen, TENANTS, HOURS, 2);
            vs.sync();
            check(vs, rows, rnd, "hourly");

            // Rolled up: each tenant's five hours into one day file; a partial sync of what the sweep committed.
            SweepReport rolled = vs.compact(dir.resolve("scratch"), o -> o.withRollup(true));
            SyncResult partial = vs.sync(SyncScope.of(ViewStore.committed(rolled)));
            assertFalse(partial.full());
            assertEquals(2, dayFiles(vs).size(), "one day file a tenant");
            check(vs, rows, rnd, "rolled up");
            assertEquals(0, deletes(vs).size(), "every row of the day files is live");

            // Late data in a covered hour is visible beside the day file, under the hour's partition.
            PartitionKey acme11 = gen.partition("acme", 1);
            List<LogRecord> late = new LogGenerator(GeneratorSpec.of(TENANTS, START, HOURS, 1, 60, seed + 1))
                    .file("acme", 1, 0);
            String lateKey = vs.ingest(acme11, late);
            rows.get("acme").addAll(late);
            vs.sync(SyncScope.of(List.of(acme11)));
            assertTrue(IcebergView.currentFiles(vs.table(), vs.location).containsKey(lateKey));
            check(vs, rows, rnd, "late data in a covered hour");

            // An hour commit on top of its cover (a racing compactor) voids it: the hour's own files hold its rows,
            // and its rows in the day file are hidden by a position delete.
            PartitionKey acme12 = gen.partition("acme", 2);
            vs.voidCover(acme12);
            assertFalse(vs.tables.hourSnapshot(acme12).isCovered());
            vs.sync(SyncScope.of(List.of(acme12)));
            assertEquals(1, deletes(vs).size(), "the day file's dead rows hidden");
            check(vs, rows, rnd, "a voided cover");

            // Retention expires the first hour of each day (covered): the day file stays, its rows hidden.
            Duration keep = Duration.between(START.plusSeconds(3600), ViewStore.LATER.instant());
            vs.compact(dir.resolve("scratch"), o -> o.withRollup(true).withRetention(Retention.of(keep)));
            for (String t : TENANTS) {
                rows.get(t).removeIf(r -> r.effectiveTime() < nanos(START.plusSeconds(3600)));
            }
            vs.sync();
            assertEquals(2, dayFiles(vs).size(), "the day files stay until their last hour expires");
            assertEquals(2, deletes(vs).size(), "both day files hide the expired hour");
            check(vs, rows, rnd, "a covered hour expired");

            // A deletion over covered hours rewrites the day without the request's rows (dead rows dropped): the
            // new day file needs no delete, and the old one leaves the view with its delete.
            String service = rows.get("acme").stream().filter(r -> r.effectiveTime() >= nanos(START.plusSeconds(
                    3 * 3600))).findFirst().orElseThrow().serviceName();
            Query q = Query.tenant("acme").service(service).window(START.plusSeconds(3 * 3600),
                    START.plusSeconds(HOURS * 3600L));
            dev.ourios.compaction.DeletionRequest request =
                    new dev.ourios.compaction.DeletionRequest(q);
            Predicate<LogRecord> matches = request.matches();
            CompactionOptions options = CompactionOptions.defaults(dir.resolve("scratch")).withRollup(true);
            CompactionWiring.deletion(DeletionSettings.of(vs.store, options)).run(request, false, r -> { });
            assertTrue(rows.get("acme").removeIf(matches), "the request deletes rows");
            vs.sync(SyncScope.of(List.of(gen.partition("acme", 3))));
            assertEquals(1, deletes(vs).size(), "only the other tenant's day file hides rows");
            check(vs, rows, rnd, "a deletion rewrote the day");

            // A view rebuilt from nothing holds the same data files and rows.
            ViewStore rebuilt = vs.withView(new ViewLayout("iceberg/rebuilt/"));
            rebuilt.form = form;
            rebuilt.sync();
            assertEquals(IcebergView.currentFiles(vs.table(), vs.location).keySet(),
                    IcebergView.currentFiles(rebuilt.table(), vs.location).keySet());
            check(rebuilt, rows, rnd, "rebuilt");

            // GC past the grace with the view's hold: what the view references stays readable.
            vs.gc(Duration.ZERO, vs.retention());
            check(vs, rows, rnd, "after GC");
        }
    }

    /** The view's rows equal the model's exactly, and seeded random windows count alike in the view and the engine. */
    private static void check(ViewStore vs, Map<String, List<LogRecord>> rows, Random rnd, String when)
            throws Exception {
        for (String t : TENANTS) {
            List<String> expected = rows.get(t).stream().map(ViewStore::fingerprint).sorted().toList();
            List<String> actual = vs.icebergRows(Expressions.equal("tenant_id", t)).stream()
                    .map(ViewStore::fingerprint).sorted().toList();
            assertEquals(expected.size(), actual.size(), when + ": rows of " + t);
            assertEquals(expected, actual, when + ": values of " + t);
            assertEquals(expected.size(), vs.ourCount(Query.tenant(t)), when + ": our count of " + t);
            for (int i = 0; i < 4; i++) {
                Instant from = START.plusSeconds(rnd.nextInt(HOURS * 3600));
                Instant to = from.plusSeconds(1 + rnd.nextInt(2 * 3600));
                Query q = Query.tenant(t).window(from, to);
                long model = rows.get(t).stream().filter(r -> r.effectiveTime() >= nanos(from)
                        && r.effectiveTime() < nanos(to)).count();
                assertEquals(model, viewWindow(vs, q), when + ": " + q);
                assertEquals(model, vs.ourCount(q), when + ": our count of " + q);
            }
        }
        // Pruning by tenant and time: a window inside one hour plans no file of another tenant nor another day.
        Query hour = Query.tenant("acme").window(START.plusSeconds(2 * 3600), START.plusSeconds(3 * 3600));
        try (CloseableIterable<FileScanTask> tasks = vs.table().newScan().filter(window(vs.form, hour))
                .planFiles()) {
            for (FileScanTask task : tasks) {
                assertTrue(vs.location.key(task.file().location()).startsWith("data/tenant_id=acme/"), when);
            }
        }
    }

    private static List<DataFile> dayFiles(ViewStore vs) {
        Table table = vs.table();
        List<DataFile> out = IcebergView.currentFiles(table, vs.location).values().stream()
                .filter(f -> f.location().contains("/" + DayPartition.DIRECTORY + "/")).toList();
        out.forEach(f -> assertEquals(ViewSchema.daySpec(table.specs()).orElseThrow().specId(), f.specId()));
        return out;
    }

    private static List<DeleteFile> deletes(ViewStore vs) {
        return List.copyOf(IcebergView.currentDeletes(vs.table(), vs.location, vs.view.layout(), SyncScope.all())
                .values());
    }

    /**
     * The view's rows in the query's window: files planned (pruned) on the filter; the rows filtered by Iceberg's
     * residual, or in the {@code long} form, whose residual the Java reader cannot evaluate, here.
     */
    private static long viewWindow(ViewStore vs, Query q) throws java.io.IOException {
        if (vs.form == ViewForm.TIMESTAMP_NS) {
            return vs.icebergRows(window(vs.form, q)).size();
        }
        return vs.icebergRows(window(vs.form, q), false).stream().filter(r -> {
            long t = ViewStore.nanos(r.getField("effective_time_unix_nano"));
            return t >= q.fromNanos() && t < q.toNanos();
        }).count();
    }

    /** The query's tenant and window as an Iceberg filter of the view's form. */
    private static org.apache.iceberg.expressions.Expression window(ViewForm form, Query q) {
        if (form == ViewForm.TIMESTAMP_NS) {
            return ViewStore.icebergFilter(q);
        }
        return Expressions.and(Expressions.equal("tenant_id", q.tenant()), Expressions.and(
                Expressions.greaterThanOrEqual("effective_time_unix_nano", q.fromNanos()),
                Expressions.lessThan("effective_time_unix_nano", q.toNanos())));
    }

    private static long nanos(Instant i) {
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }
}
