package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.FileNames;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.ChildJvm;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resource limits: a 16 MiB body compacts byte-identical in a child JVM with a small heap, and a store or scratch
 * directory that fills up during the rewrite fails the partition with one line, leaves its inputs live and no
 * partial output visible (or even present). The full-disk cases mount a small tmpfs, which needs root and
 * CAP_SYS_ADMIN; where mounting is refused they are skipped with the reason.
 */
class ResourceLimitsTest {
    private static final PartitionKey P = PartitionKey.ofHour("t", TestStores.HOUR);

    @TempDir
    Path dir;

    private final List<Path> mounts = new ArrayList<>();

    @AfterEach
    void unmount() throws Exception {
        for (Path m : mounts) {
            run("umount", m.toString());
        }
    }

    @Test
    void a_16_mib_body_compacts_byte_identical_under_a_small_heap() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("t"), 1, 3, 200, 5));
        byte[] body = new byte[16 << 20];
        new Random(16).nextBytes(body); // incompressible: the page really is 16 MiB
        LogRecord big = LogRecord.builder("t").timeUnixNano(P.hourStartNanos() + 1234).bodyKind(0).body(body)
                .serviceName("big").build();
        new IngestWriter(store).writeFile(P, List.of(big));

        String out;
        try (ChildJvm child = ChildJvm.main(MemoryBoundTest.CompactInChild.class).heap("192m")
                .jvmArgs("-XX:+UseSerialGC").args(dir.resolve("store").toString(), dir.resolve("scratch").toString(),
                        "16").mergeStderr().start()) {
            int exit = child.waitFor(Duration.ofMinutes(4));
            out = child.output();
            assertEquals(0, exit, "the 16 MiB body must compact with -Xmx192m and a 16 MiB sort budget:\n" + out);
        }
        var m = java.util.regex.Pattern.compile("output=(\\S+)").matcher(out);
        assertTrue(m.find(), out);
        List<LogRecord> rows = TestStores.readAll(store, m.group(1));
        assertEquals(601, rows.size());
        LogRecord back = rows.stream().filter(r -> r.body() != null && r.body().length == body.length).findFirst()
                .orElseThrow();
        assertArrayEquals(body, back.body(), "the body is byte-identical");
        System.out.println("16 MiB body: " + out.strip());
    }

    @Test
    void a_store_that_fills_up_during_the_rewrite_fails_the_partition_and_leaves_no_partial_output()
            throws Exception {
        Path mnt = tmpfs("store-fs", "2m");
        LocalObjectStore store = new LocalObjectStore(mnt);
        landIncompressible(store, 4, 300_000); // ~1.2 MiB of inputs: the output cannot fit beside them
        PartitionSnapshot before = TestStores.snapshot(store, P);

        SweepReport report = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });

        assertFailedCleanly(store, before, report);
    }

    @Test
    void a_scratch_directory_that_fills_up_while_spilling_fails_the_partition_and_cleans_up() throws Exception {
        Path scratch = tmpfs("scratch-fs", "1m");
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        landIncompressible(store, 6, 400_000); // 2.4 MiB of decoded rows over a 1 MiB budget: runs spill
        PartitionSnapshot before = TestStores.snapshot(store, P);

        CompactionOptions opts = CompactionOptions.defaults(scratch).withSortBudget(1 << 20);
        SweepReport report = TestStores.runner(store, scratch, opts, MeterProvider.noop())
                .sweep(PartitionFilter.all(), r -> { });

        assertFailedCleanly(store, before, report);
        try (Stream<Path> s = Files.walk(scratch)) {
            assertEquals(List.of(scratch), s.toList(), "the failed sort removed its spill runs");
        }
    }

    private static void assertFailedCleanly(LocalObjectStore store, PartitionSnapshot before, SweepReport report)
            throws Exception {
        assertEquals(1, report.count(PartitionResult.Result.ERROR), report.toString());
        String error = report.partitions().get(0).error();
        assertFalse(error.contains("\n"), error);
        assertTrue(error.contains(P.hourPath()) && error.contains("No space left on device"), error);
        PartitionSnapshot after = TestStores.snapshot(store, P);
        assertEquals(0, after.generation(), "nothing committed");
        assertEquals(before.live(), after.live(), "the inputs stay live, untouched");
        assertEquals(List.of(), after.orphans(), "no published partial output");
        assertEquals(List.of(), after.temps(), "the half-written output was removed");
        assertTrue(after.listing().stream().noneMatch(o -> FileNames.isCompactedFile(o.name())));
    }

    private static void landIncompressible(LocalObjectStore store, int files, int bodyBytes) throws Exception {
        Random rnd = new Random(3);
        IngestWriter w = new IngestWriter(store);
        for (int f = 0; f < files; f++) {
            byte[] body = new byte[bodyBytes];
            rnd.nextBytes(body);
            w.writeFile(P, List.of(LogRecord.builder("t").timeUnixNano(P.hourStartNanos() + f).bodyKind(0)
                    .body(body).serviceName("svc").build()));
        }
    }

    /** Mounts a tmpfs of {@code size} under the test directory, or skips the test saying why it cannot. */
    private Path tmpfs(String name, String size) throws Exception {
        Path m = Files.createDirectories(dir.resolve(name));
        int status;
        String why;
        try {
            ProcessBuilder pb = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs",
                    m.toString()).redirectErrorStream(true);
            Process p = pb.start();
            why = new String(p.getInputStream().readAllBytes()).strip();
            status = p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (java.io.IOException e) {
            status = -1;
            why = e.getMessage();
        }
        Assumptions.assumeTrue(status == 0, "skipped: cannot mount a " + size + " tmpfs at " + m
                + " (needs root and CAP_SYS_ADMIN): " + why);
        mounts.add(m);
        return m;
    }

    private static void run(String... cmd) throws Exception {
        new ProcessBuilder(cmd).redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
    }
}
