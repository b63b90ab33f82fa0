package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.SortKey;
import dev.ourios.core.Uuid7;
import dev.ourios.parquet.FileFooter;
import dev.ourios.parquet.FooterInspector;
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
                io.opentelemetry.api.metrics.MeterProvider.noop(), OutputFault.NONE)
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

    @Test
    void rfc0036_3_sorter_residency_stays_within_budget_plus_one_input_and_spills() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("t"), 1, 40, 400, 22).withBodyBytes(2048));
        long budget = 1L << 20;
        CompactionPlan plan = plan(store, budget, 4, 1L << 20);
        long widestInput = 0;
        for (ObjectInfo in : plan.inputs()) {
            long fp = 0;
            var seen = new java.util.IdentityHashMap<String, Boolean>();
            for (LogRecord r : TestStores.readAll(store, in.key())) {
                fp += RecordFootprint.estimate(r, seen) + 48 + 32;
            }
            widestInput = Math.max(widestInput, fp);
        }
        RewriteResult rw = new SortedRewriter(store, dir.resolve("scratch")).rewrite(plan);
        assertTrue(rw.spilledRuns() > 4, "more runs than the fan-in: hierarchical merge exercised");
        assertTrue(rw.peakFormationBytes() <= budget + widestInput,
                "formation peak " + rw.peakFormationBytes() + " > B + widest input " + (budget + widestInput));
        assertTrue(rw.peakMergeBytes() <= budget, "merge peak " + rw.peakMergeBytes());
        assertTrue(rw.checksumsMatch());
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
            RewriteResult rw = new SortedRewriter(store, Path.of(args[1]), Uuid7.system(), OutputFault.NONE)
                    .rewrite(plan);
            Files.writeString(Path.of(args[2]), sha256(store.readAllBytes(rw.outputKey())));
        }
    }
}
