package dev.ourios.compaction.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.RewriteResult;
import dev.ourios.compaction.SortedRewriter;
import dev.ourios.compaction.TestStores;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.SortKey;
import dev.ourios.core.Uuid7;
import dev.ourios.parquet.footer.FileFooter;
import dev.ourios.parquet.footer.FooterInspector;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** RFC 0036 acceptance criteria 1, 3 (unit scale) and 4. */
class Rfc0036LayoutTest {
    @TempDir
    Path dir;

    private static final PartitionKey P = PartitionKey.ofHour("t", TestStores.HOUR);

    private CompactionPlan plan(LocalObjectStore store, long budget, int fanIn, long rowGroupBytes) throws Exception {
        var s = TestStores.snapshot(store, P);
        return new CompactionPlan(P, s.generation(), s.live(), rowGroupBytes, budget, fanIn);
    }

    @Test
    void rfc0036_1_compacted_file_is_sorted_with_bounded_row_groups_declaring_sorting_columns() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("t"), 1, 16, 1500, 21));
        List<LogRecord> input = TestStores.liveRows(store, P);
        long threshold = 256 << 10;
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch"))
                .withRowGroupBytes(OptionalLong.of(threshold));
        SweepReport report = TestStores.runner(store, dir.resolve("scratch"), opts,
                io.opentelemetry.api.metrics.MeterProvider.noop())
                .sweep(PartitionFilter.all(), r -> { });
        assertEquals(1, report.count(PartitionResult.Result.COMMITTED), report.toString());
        ObjectInfo out = TestStores.snapshot(store, P).live().get(0);

        FileFooter footer = FooterInspector.inspect(store, out.key());
        assertTrue(footer.rowGroups().size() >= 2, "several row groups: " + footer.rowGroups().size());
        List<String> services = new ArrayList<>();
        for (FileFooter.RowGroup g : footer.rowGroups()) {
            assertEquals(List.of("resource.service.name ASC NULLS FIRST", "effective_time_unix_nano ASC NULLS LAST"),
                    g.sortingColumns());
            // Within the threshold plus one page's overshoot (the writer checks its size between rows).
            assertTrue(g.compressedBytes() <= threshold + threshold / 2, "group of " + g.compressedBytes());
            services.add(g.minServiceName() + ".." + g.maxServiceName());
        }
        // Clustering: each group holds one service, or spans a boundary; any service strictly inside a group's
        // [min, max] range lies wholly in that group (small services sit between big ones in key order).
        List<String> distinct = input.stream().map(LogRecord::serviceName).distinct()
                .sorted(SortKey.SERVICE_ORDER).toList();
        List<FileFooter.RowGroup> groups = footer.rowGroups();
        for (int gi = 0; gi < groups.size(); gi++) {
            int lo = distinct.indexOf(groups.get(gi).minServiceName());
            int hi = distinct.indexOf(groups.get(gi).maxServiceName());
            for (int s = lo + 1; s < hi; s++) {
                for (int gj = 0; gj < groups.size(); gj++) {
                    if (gj == gi) {
                        continue;
                    }
                    int olo = distinct.indexOf(groups.get(gj).minServiceName());
                    int ohi = distinct.indexOf(groups.get(gj).maxServiceName());
                    assertTrue(s < olo || s > ohi, "service " + distinct.get(s) + " inside group " + gi
                            + " also appears in group " + gj + ": " + services);
                }
            }
        }
        List<LogRecord> rows = TestStores.readAll(store, out.key());
        for (int i = 1; i < rows.size(); i++) {
            assertTrue(SortKey.RECORD_ORDER.compare(rows.get(i - 1), rows.get(i)) <= 0, "row " + i + " out of order");
        }
        assertEquals(TestStores.identities(input), TestStores.identities(rows));
    }

    /**
     * The run buffer's documented bound (ExternalSorter, docs/architecture.md): it spills as soon as it holds more
     * than B, inside an input if need be, so the footprint the gauge reports never exceeds B plus what adding one row
     * allocates: at most a fresh page (the row may not fit the current one), the row's new string-table and service
     * entries. The key arrays, the buffer's other allocation, are sized for 1024 rows; rows here are too wide for a
     * buffer of B to hold that many, so they never grow (checked below). The inputs are several times wider than one
     * row's allowance, so a sorter that cut runs only between whole inputs (the rule RFC 0036 states, which bounds
     * the buffer by B plus one input), or only every few hundred rows, fails this.
     */
    @Test
    @Timeout(180)
    void rfc0036_3_sorter_residency_stays_within_budget_plus_one_row_and_spills() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("t"), 1, 40, 400, 22).withBodyBytes(2048));
        long budget = 1L << 20;
        int fanIn = 4;
        CompactionPlan plan = plan(store, budget, fanIn, 1L << 20);
        long tableCap = budget / 2 / fanIn; // the sorter's cap on a run's string table
        long largestRow = 0; // the most one add can grow the buffer's footprint by
        long narrowestRow = Long.MAX_VALUE;
        long narrowestInput = Long.MAX_VALUE;
        for (ObjectInfo in : plan.inputs()) {
            long inputBytes = 0;
            for (LogRecord r : TestStores.readAll(store, in.key())) {
                // Alone in a buffer, every string of the row is new and it opens a page: the worst case of one add.
                RowBuffer alone = new RowBuffer(tableCap);
                long empty = alone.footprint();
                int encoded = alone.add(r, 0);
                largestRow = Math.max(largestRow, alone.footprint() - empty);
                narrowestRow = Math.min(narrowestRow, encoded);
                inputBytes += encoded + RowBuffer.KEY_BYTES;
            }
            narrowestInput = Math.min(narrowestInput, inputBytes);
        }
        assertTrue(narrowestRow * 1024 > budget + largestRow,
                "rows of " + narrowestRow + " B: a buffer of B would outgrow its 1024-row key arrays");
        assertTrue(narrowestInput > 2 * largestRow, "inputs of " + narrowestInput + " B do not tell one row ("
                + largestRow + " B) from one input apart");

        RewriteResult rw = new SortedRewriter(store, dir.resolve("scratch")).rewrite(plan);

        System.out.printf("rfc0036_3: %d runs, formation peak %d, B %d, one row %d, narrowest input %d%n",
                rw.spilledRuns(), rw.peakFormationBytes(), budget, largestRow, narrowestInput);
        assertTrue(rw.spilledRuns() > 4, "more runs than the fan-in: hierarchical merge exercised");
        assertTrue(rw.peakFormationBytes() > budget, "the buffer filled up to B: " + rw.peakFormationBytes());
        assertTrue(rw.peakFormationBytes() <= budget + largestRow, "formation peak " + rw.peakFormationBytes()
                + " > B + one row " + (budget + largestRow) + " (B + narrowest input: " + (budget + narrowestInput)
                + ")");
        assertTrue(rw.peakMergeBytes() <= budget, "merge peak " + rw.peakMergeBytes());
        assertTrue(rw.checksumsMatch());
    }

    /**
     * Narrow rows: a buffer of B holds thousands of them, and its key arrays double while it is still below B. With
     * B just above the footprint of 8,192 rows, the 8,193rd row would double them (8,192 x 48 bytes, more than a
     * row); the sorter spills first, so the peak stays within B plus one row here too.
     */
    @Test
    @Timeout(120)
    void rfc0036_3_narrow_rows_key_growth_stays_within_budget_plus_one_row() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("t"), 1, 3, 6000, 23).withBodyBytes(40));
        List<LogRecord> rows = new ArrayList<>();
        for (ObjectInfo in : store.listObjects(P.dataPrefix())) {
            rows.addAll(TestStores.readAll(store, in.key()));
        }
        int fanIn = 4;
        long tableCap = 1L << 20; // far above the few distinct strings: the same ids whatever B is
        RowBuffer probe = new RowBuffer(tableCap);
        long largestRow = 0;
        for (int i = 0; i < 8192; i++) {
            long before = probe.footprint();
            probe.add(rows.get(i), i);
            largestRow = Math.max(largestRow, probe.footprint() - before);
        }
        RowBuffer alone = new RowBuffer(tableCap); // alone, a row opens a page and adds every string: the worst add
        long empty = alone.footprint();
        alone.add(rows.get(0), 0);
        largestRow = Math.max(largestRow, alone.footprint() - empty);
        long budget = probe.footprint() + (16 << 10);
        long growth = probe.keyGrowthBytes();
        assertTrue(growth > largestRow + (16 << 10), "doubling the key arrays (" + growth
                + " B) must outgrow one row (" + largestRow + " B) for this test to tell the bounds apart");

        ResidencyGauge gauge = new ResidencyGauge();
        try (ExternalSorter sorter = new ExternalSorter(budget, fanIn, dir.resolve("scratch"), gauge,
                Long.MAX_VALUE)) {
            for (int i = 0; i < rows.size(); i++) {
                sorter.add(rows.get(i), i);
            }
            System.out.printf("rfc0036_3 narrow: %d rows, %d runs, formation peak %d, B %d, one row %d%n",
                    rows.size(), sorter.spilledRuns(), gauge.peakFormation(), budget, largestRow);
            assertTrue(sorter.spilledRuns() > 0, "the buffer spilled");
        }
        assertTrue(gauge.peakFormation() <= budget + largestRow, "formation peak " + gauge.peakFormation()
                + " > B + one row " + (budget + largestRow));
    }

    @Test
    void rfc0036_4_same_inputs_give_identical_bytes_across_listing_orders_and_budgets() throws Exception {
        long seed = new Random().nextLong();
        Path source = dir.resolve("source");
        LocalObjectStore src = new LocalObjectStore(source);
        TestStores.generate(src, TestStores.spec(List.of("t"), 1, 10, 500, seed));
        List<ObjectInfo> files = src.listObjects(P.dataPrefix());
        List<String> digests = new ArrayList<>();
        long[] budgets = {64L << 20, 1L << 20, 1L << 20};
        int[] fanIns = {64, 64, 2};
        for (int i = 0; i < budgets.length; i++) {
            // Copy the same files into a fresh store in a shuffled order, so directory order differs.
            LocalObjectStore store = new LocalObjectStore(dir.resolve("copy" + i));
            List<ObjectInfo> shuffled = new ArrayList<>(files);
            Collections.shuffle(shuffled, new Random(seed + i));
            for (ObjectInfo f : shuffled) {
                store.put(f.key(), src.readAllBytes(f.key()));
            }
            RewriteResult rw = new SortedRewriter(store, dir.resolve("scratch" + i))
                    .rewrite(plan(store, budgets[i], fanIns[i], 1L << 20));
            digests.add(sha256(store.readAllBytes(rw.outputKey())) + " runs=" + (rw.spilledRuns() > 0));
        }
        String first = digests.get(0).split(" ")[0];
        for (String d : digests) {
            assertEquals(first, d.split(" ")[0], "seed " + seed + ": " + digests);
        }
        assertTrue(digests.get(1).endsWith("runs=true"), "the small budget took the spill path: " + digests);
        assertTrue(digests.get(0).endsWith("runs=false"), "the large budget skipped spilling: " + digests);
    }

    /**
     * Rows of equal (service, effective time) from different inputs: the output keeps them in (input ordinal in
     * sorted name order, row ordinal) order however the two input readers' batches interleave, with and without
     * spilling, through a hierarchical merge too (STORAGE.md §5's tie-break).
     */
    @Test
    void rfc0036_4_equal_keys_keep_input_then_row_order_whatever_the_readers_timing() throws Exception {
        long seed = new Random().nextLong();
        System.out.println("Rfc0036LayoutTest seed " + seed);
        Random rnd = new Random(seed);
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        IngestWriter ingest = new IngestWriter(store);
        for (int f = 0; f < 6; f++) {
            List<LogRecord> rows = new ArrayList<>();
            int n = 1500 + rnd.nextInt(1500);
            for (int j = 0; j < n; j++) {
                // The service comes from the resource attributes (compaction re-projects it); a fifth have none.
                String service = rnd.nextInt(5) == 0 ? null : "svc-" + rnd.nextInt(3);
                rows.add(LogRecord.builder("t").timeUnixNano(P.hourStartNanos() + rnd.nextInt(8) * 1_000_000L)
                        .resourceAttributes(service == null ? "[]"
                                : "[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"" + service + "\"}}]")
                        .serviceName(service).body(("row " + j + " of " + f).getBytes(StandardCharsets.UTF_8))
                        .build());
            }
            ingest.writeFile(P, rows);
        }
        CompactionPlan probe = plan(store, 64L << 20, 64, 1L << 20);
        List<String> names = probe.inputs().stream().map(ObjectInfo::key).toList();
        assertEquals(names.stream().sorted().toList(), names, "plan order is sorted name order");
        List<String> expected = new ArrayList<>();
        List<LogRecord> all = new ArrayList<>();
        for (String key : names) {
            all.addAll(TestStores.readAll(store, key)); // input ordinal, then row ordinal
        }
        List<LogRecord> sorted = new ArrayList<>(all);
        sorted.sort(SortKey.RECORD_ORDER); // stable: ties keep (input, row) order
        sorted.forEach(r -> expected.add(new String(r.body(), StandardCharsets.UTF_8)));
        long[] budgets = {64L << 20, 1L << 20, 1L << 20, 64L << 20};
        int[] fanIns = {64, 64, 2, 64};
        for (int i = 0; i < budgets.length; i++) {
            RewriteResult rw = new SortedRewriter(store, dir.resolve("scratch" + i))
                    .rewrite(plan(store, budgets[i], fanIns[i], 1L << 20));
            assertEquals(budgets[i] == 1L << 20, rw.spilledRuns() > 0, "spilled runs: " + rw.spilledRuns());
            List<String> got = TestStores.readAll(store, rw.outputKey()).stream()
                    .map(r -> new String(r.body(), StandardCharsets.UTF_8)).toList();
            assertTrue(expected.equals(got), "seed " + seed + ", budget " + budgets[i] + ", fan-in " + fanIns[i]
                    + ": first difference at row " + firstDifference(expected, got));
            store.delete(rw.outputKey());
        }
    }

    private static int firstDifference(List<String> a, List<String> b) {
        int i = 0;
        while (i < a.size() && i < b.size() && a.get(i).equals(b.get(i))) {
            i++;
        }
        return i;
    }

    @Test
    void rfc0036_4_a_separate_jvm_writes_the_same_bytes() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("t"), 1, 6, 400, 23));
        RewriteResult here = new SortedRewriter(store, dir.resolve("scratch")).rewrite(plan(store, 64L << 20, 64,
                1L << 20));
        Path outFile = dir.resolve("other.sha");
        try (ChildJvm child = ChildJvm.main(RewriteInAnotherJvm.class).args(dir.resolve("store").toString(),
                dir.resolve("scratch2").toString(), outFile.toString()).mergeStderr().start()) {
            int exit = child.waitFor(Duration.ofMinutes(4));
            assertEquals(0, exit, child.output());
        }
        assertEquals(sha256(store.readAllBytes(here.outputKey())), Files.readString(outFile).trim());
    }

    static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    /** Entry point for the cross-process determinism check. */
    public static final class RewriteInAnotherJvm {
        public static void main(String[] args) throws Exception {
            LocalObjectStore store = new LocalObjectStore(Path.of(args[0]));
            var s = TestStores.snapshot(store, P);
            List<ObjectInfo> inputs = s.live().stream()
                    .filter(o -> !o.name().endsWith(".compacted.parquet")).toList();
            CompactionPlan plan = new CompactionPlan(P, 0, inputs, 1L << 20, 1L << 20, 64);
            RewriteResult rw = new SortedRewriter(store, Path.of(args[1]), Uuid7.system())
                    .rewrite(plan);
            Files.writeString(Path.of(args[2]), sha256(store.readAllBytes(rw.outputKey())));
        }
    }
}
