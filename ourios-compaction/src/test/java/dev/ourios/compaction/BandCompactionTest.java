package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.compaction.verify.Verifier;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Retention;
import dev.ourios.core.SortKey;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.Query;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The size band (storage.md §4.14): a partition whose output would pass {@code max_file_bytes} is compacted into
 * several files of about equal size (the balanced cut), each within the bound, with disjoint, ordered (service, effective time) ranges, every row exactly
 * once, committed together and named as the partition's main files; the same bytes under two runs and two sort
 * budgets; a band at rest is not compacted again, and late files merge beside it as its tail.
 */
class BandCompactionTest {
    private static final long MAX_FILE = 3L << 20;

    @TempDir
    Path dir;

    @Test
    void a_partition_beyond_the_bound_becomes_a_band_of_disjoint_ordered_files_within_it() throws Exception {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        int files = 4 + rnd.nextInt(5);
        int rows = 6000 + rnd.nextInt(6000);
        long genSeed = rnd.nextLong();
        String ctx = "seed " + seed + " (" + files + " files of " + rows + " rows)";
        System.out.println("BandCompactionTest " + ctx);

        List<Band> bands = new ArrayList<>();
        for (long budget : new long[] {64L << 20, 1L << 20, 64L << 20}) {
            bands.add(compact(dir.resolve("run-" + bands.size()), files, rows, genSeed, budget, ctx));
        }
        Band first = bands.get(0);
        assertTrue(first.contents().size() >= 2, ctx + ": the partition is written as a band: " + first.sizes());
        // The balanced cut: the band's files come out about equal, each above half the bound when the whole needs
        // several (a quarter of the mean here, for the estimate's error), never full files and a small last one.
        long total = first.sizes().stream().mapToLong(Long::longValue).sum();
        long smallest = first.sizes().stream().mapToLong(Long::longValue).min().orElseThrow();
        assertTrue(smallest >= total / first.sizes().size() / 4,
                ctx + ": a balanced band: " + first.sizes());
        for (Band b : bands.subList(1, bands.size())) {
            assertEquals(first.contents().size(), b.contents().size(), ctx + ": the same cut");
            for (int i = 0; i < first.contents().size(); i++) {
                assertArrayEquals(first.contents().get(i), b.contents().get(i),
                        ctx + ": band file " + i + " is byte-identical across runs and sort budgets");
            }
        }
    }

    /** One compaction of the generated partition; checks every band invariant and returns the files' bytes. */
    private Band compact(Path root, int files, int rows, long genSeed, long budget, String ctx) throws Exception {
        LocalObjectStore store = new LocalObjectStore(root.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, files, rows, genSeed));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        List<String> expected = TestStores.identities(TestStores.liveRows(store, p));
        CompactionOptions opts = CompactionOptions.defaults(root.resolve("scratch")).withMaxFileBytes(MAX_FILE)
                .withSortBudget(budget);
        SweepRunner runner = TestStores.runner(store, root.resolve("scratch"), opts, MeterProvider.noop());
        SweepReport report = runner.sweep(PartitionFilter.all(), r -> { });
        assertFalse(report.hasErrors(), ctx + ": " + report);

        PartitionSnapshot s = TestStores.snapshot(store, p);
        Manifest m = s.manifest().orElseThrow();
        List<String> order = m.main().isEmpty() ? List.of(s.live().get(0).name()) : m.main();
        assertEquals(m.commitRecord().orElseThrow().outputs().orElseThrow(), order,
                ctx + ": the commit names the band in key order, as main does");
        assertEquals(s.live().size(), order.size(), ctx + ": the live set is the band");

        List<String> all = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        LogRecord previousLast = null;
        for (String name : order) {
            ObjectInfo f = s.live().stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
            assertTrue(f.size() <= MAX_FILE, ctx + ": " + name + " holds " + f.size() + " bytes, above the bound "
                    + MAX_FILE);
            List<LogRecord> fileRows = TestStores.readAll(store, f.key());
            assertFalse(fileRows.isEmpty(), ctx + ": no band file is empty");
            for (int i = 1; i < fileRows.size(); i++) {
                assertTrue(SortKey.RECORD_ORDER.compare(fileRows.get(i - 1), fileRows.get(i)) <= 0, ctx + ": " + name
                        + " is sorted at row " + i);
            }
            if (previousLast != null) {
                assertTrue(SortKey.RECORD_ORDER.compare(previousLast, fileRows.get(0)) < 0, ctx + ": " + name
                        + " starts after the previous file's last (service, time): ranges are disjoint and ordered");
            }
            previousLast = fileRows.get(fileRows.size() - 1);
            fileRows.forEach(r -> all.add(TestStores.identity(r)));
            contents.add(Files.readAllBytes(root.resolve("store").resolve(f.key())));
            sizes.add(f.size());
        }
        assertEquals(expected, all.stream().sorted().toList(), ctx + ": every row exactly once");
        Verifier.PartitionVerdict verdict = new Verifier(store, new TableLayout(store),
                new TableReader(store, new ManifestCodec())).verify(p);
        assertTrue(verdict.ok() && verdict.problems().isEmpty(), ctx + ": verify passes: " + verdict);

        SweepReport again = runner.sweep(PartitionFilter.all(), r -> { });
        assertEquals(0, again.partitions().size(), ctx + ": a band at rest is not a candidate: " + again);
        System.out.println("BandCompactionTest " + ctx + ": band of " + sizes + " bytes, bound " + MAX_FILE);
        return new Band(contents, sizes);
    }

    @Test
    void late_files_merge_as_the_bands_tail_and_beyond_the_ratio_the_hour_is_rewritten_into_a_new_band() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 6, 9000, 11));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMaxFileBytes(MAX_FILE);
        SweepRunner runner = TestStores.runner(store, dir.resolve("scratch"), opts, MeterProvider.noop());
        runner.sweep(PartitionFilter.all(), r -> { });
        List<String> band = TestStores.snapshot(store, p).manifest().orElseThrow().main();
        assertTrue(band.size() >= 2, "a band: " + band);
        List<LogRecord> expected = new ArrayList<>(TestStores.liveRows(store, p));

        LogGenerator late = new LogGenerator(TestStores.spec(List.of("acme"), 1, 3, 200, 5));
        for (int f = 0; f < 3; f++) {
            List<LogRecord> rows = late.file("acme", 0, f);
            new IngestWriter(store).writeFile(p, rows);
            expected.addAll(rows);
        }
        SweepReport report = runner.sweep(PartitionFilter.all(), r -> { });
        assertEquals(1, report.count(PartitionResult.Result.COMMITTED), report.toString());
        PartitionSnapshot after = TestStores.snapshot(store, p);
        assertEquals(band, after.manifest().orElseThrow().main(), "the band is still the main files");
        assertEquals(band.size() + 1, after.live().size(), "the band and one merged tail: " + after.live());
        assertEquals(TestStores.identities(expected), TestStores.identities(TestStores.liveRows(store, p)),
                "every row live exactly once");
        assertEquals(0, runner.sweep(PartitionFilter.all(), r -> { }).partitions().size(),
                "a band with a one-file tail is at rest");

        // A tail beyond the ratio (0 here): the whole partition is rewritten into a new band.
        SweepRunner whole = TestStores.runner(store, dir.resolve("scratch"), opts.withMaxTailRatio(0),
                MeterProvider.noop());
        SweepReport rewrite = whole.sweep(PartitionFilter.all(), r -> { });
        assertEquals(1, rewrite.count(PartitionResult.Result.COMMITTED), rewrite.toString());
        PartitionSnapshot rewritten = TestStores.snapshot(store, p);
        List<String> newBand = rewritten.manifest().orElseThrow().main();
        assertTrue(newBand.size() >= 2 && newBand.stream().noneMatch(band::contains), "a new band: " + newBand);
        assertEquals(newBand.size(), rewritten.live().size(), "the new band is the live set: " + rewritten.live());
        assertEquals(TestStores.identities(expected), TestStores.identities(TestStores.liveRows(store, p)),
                "every row live exactly once after the whole rewrite");
        assertEquals(0, whole.sweep(PartitionFilter.all(), r -> { }).partitions().size(), "the new band is at rest");
    }

    @Test
    void a_deletion_rewrites_a_band_into_a_band_its_audit_lists_every_file_and_an_expiry_retires_it_whole()
            throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 6, 9000, 13));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMaxFileBytes(MAX_FILE);
        TestStores.runner(store, dir.resolve("scratch"), opts, MeterProvider.noop())
                .sweep(PartitionFilter.all(), r -> { });
        PartitionSnapshot s = TestStores.snapshot(store, p);
        assertTrue(s.manifest().orElseThrow().main().size() >= 2, "a band: " + s.live());
        CommitRecord compaction = s.manifest().get().commitRecord().orElseThrow().complete().orElseThrow();
        AuditLog audit = new AuditLog(store, dir.resolve("scratch"));
        AuditEvent event = AuditEvent.of(p, s.generation(), compaction);
        assertEquals(compaction.outputs(), event.outputFiles(), "the event lists every file of the band");
        assertTrue(audit.exists(event), "the band's audit event is written");

        List<LogRecord> before = TestStores.liveRows(store, p);
        String service = before.get(before.size() / 2).serviceName();
        DeletionRequest request = new DeletionRequest(Query.tenant("acme").service(service)
                .window(TestStores.HOUR, TestStores.HOUR.plusSeconds(3600)));
        List<DeletionResult> results = CompactionWiring.deletion(DeletionSettings.of(store, opts))
                .run(request, false, r -> { });
        assertEquals(DeletionResult.Status.COMMITTED, results.get(0).status(), results.toString());
        PartitionSnapshot after = TestStores.snapshot(store, p);
        List<String> band = after.manifest().orElseThrow().main();
        assertTrue(band.size() >= 2, "the kept rows are a new band: " + after.live());
        assertEquals(after.live().size(), band.size(), "the band is the live set: " + after.live());
        assertEquals(band, results.get(0).outputs(), "the deletion's result names the band in key order");
        assertTrue(after.live().stream().allMatch(f -> f.size() <= MAX_FILE), "every file in the bound");
        assertEquals(TestStores.identities(before.stream().filter(request.matches().negate()).toList()),
                TestStores.identities(TestStores.liveRows(store, p)), "rows after = rows before − deleted");

        CompactionOptions expire = opts.withRetention(Retention.of(Duration.ofDays(1)));
        SweepReport expiry = TestStores.runner(store, dir.resolve("scratch"), expire, MeterProvider.noop())
                .sweep(PartitionFilter.all(), r -> { });
        assertFalse(expiry.hasErrors(), expiry.toString());
        PartitionSnapshot expired = TestStores.snapshot(store, p);
        assertEquals(List.of(), expired.live(), "the expiry retires every band file");
        assertEquals(List.of(), expired.manifest().orElseThrow().main());
    }

    @Test
    void verify_checks_a_band_against_its_one_checksum_and_names_a_band_whose_files_were_swapped() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 6, 9000, 19));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMaxFileBytes(MAX_FILE);
        TestStores.runner(store, dir.resolve("scratch"), opts, MeterProvider.noop())
                .sweep(PartitionFilter.all(), r -> { });
        Verifier verifier = new Verifier(store, new TableLayout(store), new TableReader(store, new ManifestCodec()));
        assertEquals(Verifier.Status.OK, verifier.verify(p).status(), "a band verifies whole");

        // The first file's bytes in place of the second's: every file still reads, but the band holds other rows.
        List<String> band = TestStores.snapshot(store, p).manifest().orElseThrow().main();
        byte[] first = store.readAllBytes(p.dataPrefix() + band.get(0));
        store.delete(p.dataPrefix() + band.get(1));
        store.put(p.dataPrefix() + band.get(1), first);
        Verifier.PartitionVerdict v = verifier.verify(p);
        assertEquals(Verifier.Status.MISMATCH, v.status(), v.toString());
        assertTrue(v.problems().stream().anyMatch(m -> m.contains("band of " + band.size() + " files")
                && m.contains("checksum")), v.problems().toString());
    }

    private record Band(List<byte[]> contents, List<Long> sizes) {
    }
}
