package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.CompactionPolicy;
import dev.ourios.compaction.share.ShareSampler;
import dev.ourios.compaction.share.Shares;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.compaction.verify.ChecksumMismatchException;
import dev.ourios.compaction.verify.Verifier;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.SortKey;
import dev.ourios.core.Uuid7;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shares of a large rewrite (storage.md §4.14): a partition of at least four times {@code max_file_bytes} is cut into
 * shares fixed by its inputs, which any number of workers write into the same band, byte for byte, under any sort
 * budget; every row exactly once, the files sorted, disjoint and ordered; one failing worker leaves no file of any
 * worker behind.
 */
class ShareRewriteTest {
    private static final long MAX_FILE = 1L << 20;

    @TempDir
    Path dir;

    @Test
    void any_number_of_workers_writes_the_same_band_byte_for_byte() throws Exception {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        int files = 5 + rnd.nextInt(4);
        int rows = 9000 + rnd.nextInt(6000);
        long genSeed = rnd.nextLong();
        String ctx = "seed " + seed + " (" + files + " files of " + rows + " rows)";
        System.out.println("ShareRewriteTest " + ctx);
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, files, rows, genSeed));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        List<String> expected = TestStores.identities(TestStores.liveRows(store, p));
        CompactionPlan plan = plan(store, p, CompactionOptions.DEFAULT_SORT_BUDGET_BYTES);
        Shares shares = new ShareSampler(store).shares(plan);
        assertTrue(shares.count() >= 2, ctx + ": " + plan.bytesIn() + " input bytes are cut into shares: " + shares);

        List<byte[]> first = null;
        int[][] runs = {{1, 64}, {2, 64}, {3, 1}, {shares.count(), 64}, {1, 1}};
        for (int[] run : runs) {
            int workers = run[0];
            CompactionPlan planned = plan(store, p, (long) run[1] << 20);
            RewriteResult r = new SortedRewriter(store, dir.resolve("scratch"), Uuid7.system(), null,
                    RowVerification.CHECKSUMS, workers).rewrite(planned);
            String at = ctx + ", " + workers + " workers, budget " + run[1] + " MiB";
            assertTrue(r.checksumsMatch(), at);
            assertEquals(expected.size(), r.rowsOut(), at);
            List<byte[]> band = checkBand(store, r, expected, at);
            if (first == null) {
                first = band;
                assertBalanced(store, r, shares, expected.size(), at);
                // Every cut is a row's key, so every share but the first holds rows and writes a file at least.
                assertTrue(band.size() >= shares.count() - 1, at + ": " + band.size() + " files of " + shares);
                continue;
            }
            assertEquals(first.size(), band.size(), at + ": the same cut as one worker's");
            for (int i = 0; i < band.size(); i++) {
                assertArrayEquals(first.get(i), band.get(i), at + ": band file " + i + " is byte-identical");
            }
        }
        assertTrue(scratchIsEmpty(), ctx + ": every worker's scratch is gone");
    }

    @Test
    void one_failing_worker_fails_the_rewrite_and_leaves_no_file_of_any_worker() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 6, 12000, 7));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        CompactionPlan plan = plan(store, p, CompactionOptions.DEFAULT_SORT_BUDGET_BYTES);
        assertTrue(new ShareSampler(store).shares(plan).count() >= 2, "the partition is cut into shares");
        // The second worker drops a row late in its stream; the first worker finishes and publishes its files.
        RowFault dropInSecond = (i, r) -> i == 2000 && Thread.currentThread().getName().endsWith("-1") ? List.of()
                : List.of(r);
        SortedRewriter rewriter = new SortedRewriter(store, dir.resolve("scratch"), Uuid7.system(), dropInSecond,
                RowVerification.CHECKSUMS, 2);
        assertThrows(ChecksumMismatchException.class, () -> rewriter.rewrite(plan));
        try (Stream<Path> files = Files.list(dir.resolve("store").resolve(p.dataPrefix()))) {
            List<String> left = files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".compacted.parquet")).toList();
            assertEquals(List.of(), left, "no worker's file is left behind");
        }
        assertTrue(scratchIsEmpty(), "every worker's scratch is gone");
    }

    @Test
    void a_sweep_with_share_workers_commits_the_shares_as_one_band() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 6, 12000, 3));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        List<String> expected = TestStores.identities(TestStores.liveRows(store, p));
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMaxFileBytes(MAX_FILE)
                .withShareWorkers(2);
        SweepRunner runner = TestStores.runner(store, dir.resolve("scratch"), opts, MeterProvider.noop());
        SweepReport report = runner.sweep(PartitionFilter.all(), r -> { });
        assertFalse(report.hasErrors(), report.toString());
        PartitionSnapshot s = TestStores.snapshot(store, p);
        List<String> main = s.manifest().orElseThrow().main();
        assertTrue(main.size() >= 2, "the shares are the partition's band: " + main);
        assertEquals(main.size(), s.live().size());
        List<String> all = new ArrayList<>();
        for (ObjectInfo f : s.live()) {
            TestStores.readAll(store, f.key()).forEach(r -> all.add(TestStores.identity(r)));
        }
        assertEquals(expected, all.stream().sorted().toList(), "every row exactly once");
        Verifier.PartitionVerdict verdict = new Verifier(store, new TableLayout(store),
                new TableReader(store, new ManifestCodec())).verify(p);
        assertTrue(verdict.ok() && verdict.problems().isEmpty(), verdict.toString());
    }

    private CompactionPlan plan(LocalObjectStore store, PartitionKey p, long budget) throws IOException {
        PartitionSnapshot s = TestStores.snapshot(store, p);
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMaxFileBytes(MAX_FILE)
                .withSortBudget(budget);
        return new CompactionPolicy(opts).decide(s.partition(), s.generation(), s.live(), TestStores.LATER.instant())
                .plan().orElseThrow();
    }

    /** Checks the band's invariants and returns its files' bytes in key order. */
    private List<byte[]> checkBand(LocalObjectStore store, RewriteResult r, List<String> expected, String ctx)
            throws IOException {
        List<String> all = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        LogRecord previousLast = null;
        for (RewriteResult.Output f : r.outputs()) {
            List<LogRecord> fileRows = TestStores.readAll(store, f.key());
            assertFalse(fileRows.isEmpty(), ctx + ": no band file is empty");
            assertTrue(f.bytes() <= MAX_FILE, ctx + ": " + f.name() + " holds " + f.bytes() + " bytes");
            for (int i = 1; i < fileRows.size(); i++) {
                assertTrue(SortKey.RECORD_ORDER.compare(fileRows.get(i - 1), fileRows.get(i)) <= 0,
                        ctx + ": " + f.name() + " is sorted at row " + i);
            }
            if (previousLast != null) {
                assertTrue(SortKey.RECORD_ORDER.compare(previousLast, fileRows.get(0)) < 0,
                        ctx + ": " + f.name() + " starts after the previous file's last key");
            }
            previousLast = fileRows.get(fileRows.size() - 1);
            fileRows.forEach(x -> all.add(TestStores.identity(x)));
            contents.add(Files.readAllBytes(dir.resolve("store").resolve(f.key())));
        }
        assertEquals(expected, all.stream().sorted().toList(), ctx + ": every row exactly once");
        return contents;
    }

    /**
     * The sample fixes cuts near the rows' quantiles (about 4,096 sampled rows a share): no share holds more than a
     * quarter above the mean.
     */
    private static void assertBalanced(LocalObjectStore store, RewriteResult r, Shares shares, long rows, String ctx)
            throws IOException {
        long[] perShare = new long[shares.count()];
        for (RewriteResult.Output f : r.outputs()) {
            for (LogRecord x : TestStores.readAll(store, f.key())) {
                perShare[shares.shareOf(x.serviceName(), x.effectiveTime())]++;
            }
        }
        long largest = java.util.Arrays.stream(perShare).max().orElseThrow();
        assertTrue(largest * shares.count() <= rows * 5 / 4, ctx + ": rows per share " + java.util.Arrays
                .toString(perShare));
    }

    private boolean scratchIsEmpty() throws IOException {
        Path scratch = dir.resolve("scratch");
        if (!Files.exists(scratch)) {
            return true;
        }
        try (Stream<Path> entries = Files.list(scratch)) {
            return entries.noneMatch(e -> e.getFileName().toString().startsWith("sort"));
        }
    }
}
