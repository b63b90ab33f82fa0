package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.compaction.sort.RecordFootprint;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.ChildJvm;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC0036.3: partitions whose decoded rows are many times the heap compact in a child JVM with a small -Xmx.
 * CI runs a reduced size; {@code -Dourios.big=true} runs the full criterion (1,500+ files, more than 1 GiB of
 * decoded rows, -Xmx384m).
 */
class MemoryBoundTest {
    private static final boolean BIG = Boolean.getBoolean("ourios.big");
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(BIG ? 60 : 4);

    /** The many-small-files partition: this many files of this many rows with 1 KiB bodies. */
    private static final int FILES = BIG ? 1600 : 300;
    private static final int ROWS = BIG ? 700 : 300;

    @TempDir
    Path dir;

    private LocalObjectStore manySmallFiles() throws java.io.IOException {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("t"), 1, FILES, ROWS, 41).withBodyBytes(1024));
        return store;
    }

    @Test
    void rfc0036_3_many_small_compressible_files_compact_under_a_small_heap() throws Exception {
        LocalObjectStore store = manySmallFiles();
        long decoded = decodedEstimate(store, 20);
        String heap = BIG ? "-Xmx384m" : "-Xmx128m";
        String out = compactInChild(heap, BIG ? "64" : "16");
        assertTrue(decoded > (BIG ? 1L << 30 : 256L << 20), "decoded estimate " + decoded + " too small for the test");
        assertEquals((long) FILES * ROWS, TestStores.readAll(store, outputKey(out)).size(), out);
        System.out.printf("rfc0036_3: %d files, %d rows, ~%d MiB decoded, %s: %s%n", FILES, FILES * ROWS,
                decoded >> 20, heap, out.strip());
    }

    @Test
    void rfc0036_3_two_share_workers_compact_under_the_same_small_heap_and_budget() throws Exception {
        LocalObjectStore store = manySmallFiles();
        long bytes = TestStores.snapshot(store, PartitionKey.ofHour("t", TestStores.HOUR)).liveBytes();
        long maxFile = Math.max(CompactionOptions.MIN_MAX_FILE_BYTES, bytes / 6);
        int shares = dev.ourios.compaction.share.ShareSampler.shareCount(bytes, maxFile);
        assertTrue(shares >= 2, bytes + " bytes under " + maxFile + " are shared");
        String heap = BIG ? "-Xmx384m" : "-Xmx128m";
        String out = compactInChild(heap, BIG ? "64" : "16", Long.toString(maxFile), "2");
        assertTrue(out.contains(" rows=" + (long) FILES * ROWS + " "), out);
        System.out.printf("rfc0036_3 shared: %d shares on 2 workers, %s: %s%n", shares, heap, out.strip());
    }

    @Test
    void rfc0036_3_wide_rows_compact_under_a_small_heap_and_budget() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        PartitionKey p = PartitionKey.ofHour("t", TestStores.HOUR);
        Random rnd = new Random(42);
        IngestWriter w = new IngestWriter(store);
        int files = BIG ? 200 : 40;
        int rows = 100;
        for (int f = 0; f < files; f++) {
            List<LogRecord> batch = new ArrayList<>();
            for (int i = 0; i < rows; i++) {
                List<KeyValue> attrs = new ArrayList<>();
                for (int a = 0; a < 40; a++) {
                    attrs.add(KeyValue.of("attr." + a, randomText(rnd, 250)));
                }
                batch.add(LogRecord.builder("t").timeUnixNano(p.hourStartNanos() + rnd.nextLong(3_600_000_000_000L))
                        .attributes(AttributesJson.encode(attrs))
                        .resourceAttributes("[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"svc-"
                                + rnd.nextInt(5) + "\"}}]")
                        .serviceName("svc").bodyKind(2).build());
            }
            w.writeFile(p, batch);
        }
        String out = compactInChild("-Xmx64m", "2");
        assertEquals((long) files * rows, TestStores.readAll(store, outputKey(out)).size(), out);
        assertTrue(!out.contains("spilled=0 "), "the small budget must spill: " + out);
        System.out.println("rfc0036_3 wide rows: " + out.strip());
    }

    private static String outputKey(String childOutput) {
        var m = java.util.regex.Pattern.compile("output=(\\S+)").matcher(childOutput);
        assertTrue(m.find(), childOutput);
        return m.group(1);
    }

    private static String randomText(Random rnd, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append((char) ('a' + rnd.nextInt(26)));
        }
        return sb.toString();
    }

    private long decodedEstimate(LocalObjectStore store, int sampleFiles) throws Exception {
        var live = TestStores.snapshot(store, PartitionKey.ofHour("t", TestStores.HOUR)).live();
        long sum = 0;
        for (int i = 0; i < sampleFiles; i++) {
            for (LogRecord r : TestStores.readAll(store, live.get(i).key())) {
                sum += RecordFootprint.estimate(r);
            }
        }
        return sum / sampleFiles * live.size();
    }

    /** {@code more}: the largest file and the share workers, or nothing (the default bound, one worker). */
    private String compactInChild(String heap, String budgetMiB, String... more) throws Exception {
        String out;
        List<String> args = new ArrayList<>(List.of(dir.resolve("store").toString(), dir.resolve("scratch").toString(),
                budgetMiB));
        args.addAll(List.of(more));
        try (ChildJvm child = ChildJvm.main(CompactInChild.class).jvmArgs(heap, "-XX:+UseSerialGC")
                .args(args.toArray(String[]::new)).mergeStderr().start()) {
            int exit = child.waitFor(CHILD_TIMEOUT);
            out = child.output();
            assertEquals(0, exit, "child JVM failed (" + heap + "):\n" + out);
        }
        try (var s = Files.walk(dir.resolve("scratch"))) {
            assertTrue(s.noneMatch(f -> f.toString().endsWith(".parquet")), "scratch cleaned");
        }
        return out;
    }

    /** The rewrite, alone in a JVM with a small heap; prints what it did, the sorter's peaks and the heap's peak. */
    public static final class CompactInChild {
        public static void main(String[] args) throws Exception {
            LocalObjectStore store = new LocalObjectStore(Path.of(args[0]));
            PartitionKey p = PartitionKey.ofHour("t", TestStores.HOUR);
            var snapshot = TestStores.snapshot(store, p);
            long budget = Long.parseLong(args[2]) << 20;
            long maxFile = args.length > 3 ? Long.parseLong(args[3]) : CompactionOptions.DEFAULT_MAX_FILE_BYTES;
            int workers = args.length > 4 ? Integer.parseInt(args[4]) : 1;
            CompactionPlan plan = new CompactionPlan(p, snapshot.generation(), snapshot.live(),
                    RowGroupSizing.resolve(java.util.OptionalLong.empty(), snapshot.liveBytes(), maxFile),
                    budget, CompactionOptions.DEFAULT_FAN_IN, maxFile);
            RewriteResult rw = new SortedRewriter(store, Path.of(args[1]), dev.ourios.core.Uuid7.system(),
                    RowVerification.CHECKSUMS, workers).rewrite(plan);
            long peak = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) {
                    peak += pool.getPeakUsage().getUsed();
                }
            }
            System.out.printf("output=%s rows=%d bytes_in=%d bytes_out=%d spilled=%d peak_formation_mib=%d "
                    + "peak_merge_mib=%d peak_heap_mib=%d peak_rss_mib=%d%n", rw.outputKey(), rw.rowsOut(),
                    rw.bytesIn(), rw.bytesOut(), rw.spilledRuns(), rw.peakFormationBytes() >> 20,
                    rw.peakMergeBytes() >> 20, peak >> 20, peakRssKib() >> 10);
        }

        /** The process's peak resident set (VmHWM), or -1 where /proc is not there. */
        private static long peakRssKib() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("VmHWM:")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", ""));
                    }
                }
            } catch (java.io.IOException | NumberFormatException e) {
                return -1;
            }
            return -1;
        }
    }
}
