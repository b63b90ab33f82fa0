package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.IncompleteUpload;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.s3.S3Config;
import dev.ourios.store.s3.S3Credentials;
import dev.ourios.store.s3.S3ObjectStore;
import dev.ourios.store.s3.S3ProxyServer;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.GcReport;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.testkit.Await;
import dev.ourios.testkit.ChildJvm;
import dev.ourios.testkit.TestSeed;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A compactor SIGKILLed in the middle of a multipart upload of its output leaves no visible change, and the next
 * sweep commits normally. The child JVM compacts one partition whose output spans several 8 MiB parts;
 * a watcher thread in the child prints {@code MULTIPART} as soon as its store has sent the second PUT-class
 * request (CreateMultipartUpload, then the first UploadPart), and the test kills it with
 * {@link Process#destroyForcibly()} (SIGKILL) on that line, several parts before CompleteMultipartUpload.
 */
class S3MultipartKillTest {
    private static final String BUCKET = "killed";
    private static final String PREFIX = "store";

    @Test
    // Among the longest tests (1-2 minutes on a loaded 2-core machine): a bound above the 5 m default.
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void sigkill_during_multipart_upload_leaves_no_visible_change_and_the_next_sweep_commits(@TempDir Path dir)
            throws Exception {
        long seed = TestSeed.announce(S3MultipartKillTest.class);
        try (S3ProxyServer server = S3ProxyServer.start()) {
            server.createBucket(BUCKET);
            S3Config config = server.config(BUCKET, PREFIX);
            try (S3ObjectStore store = new S3ObjectStore(config)) {
                // ~33 MiB of output (5 parts) so the kill after part 1 lands well before the complete.
                TestStores.generate(store, TestStores.spec(List.of("big"), 1, 8, 4200, seed).withBodyBytes(6000));
                PartitionKey p = PartitionKey.ofHour("big", TestStores.HOUR);
                PartitionSnapshot before = TestStores.snapshot(store, p);
                List<String> rowsBefore = TestStores.identities(TestStores.liveRows(store, p));
                long inputBytes = before.live().stream().mapToLong(ObjectInfo::size).sum();
                assertTrue(inputBytes > 3L * S3Config.DEFAULT_PART_SIZE, "input too small for a multi-part output: "
                        + inputBytes);
                TreeSet<String> keysBefore = allKeys(server);

                List<String> childOut = new ArrayList<>();
                String trigger = runAndKill(server, dir, childOut);
                System.out.println("killed child on: " + trigger);
                long putsAtTrigger = Long.parseLong(trigger.substring(trigger.indexOf("puts=") + 5).trim());
                long partsTotal = (inputBytes + S3Config.DEFAULT_PART_SIZE - 1) / S3Config.DEFAULT_PART_SIZE;
                assertTrue(putsAtTrigger < 1 + partsTotal, "the kill must come before the last part: " + trigger);

                // Nothing visible changed: same generation, same live set, same rows, and no new key anywhere
                // in the bucket (an incomplete multipart upload is not an object).
                PartitionSnapshot after = TestStores.snapshot(store, p);
                assertEquals(before.generation(), after.generation());
                assertEquals(before.live(), after.live());
                assertEquals(keysBefore, allKeys(server), "child output so far: " + childOut);
                assertEquals(rowsBefore, TestStores.identities(TestStores.liveRows(store, p)));
                List<String> pending = inProgressUploads(server);
                System.out.println("in-progress multipart uploads left by the killed child: " + pending);
                // Proof the kill landed mid-upload: the child's upload is still in progress at the server.
                assertEquals(1, pending.size(), "one incomplete upload of the output: " + pending);
                assertTrue(pending.get(0).startsWith(PREFIX + "/" + p.dataPrefix())
                        && pending.get(0).contains(".compacted.parquet#"), pending.toString());

                // The next sweep (in process) commits normally and keeps every row exactly once.
                SweepReport report = TestStores.runner(store, dir.resolve("scratch-next"))
                        .sweep(PartitionFilter.all(), r -> { });
                assertFalse(report.hasErrors(), report.toString());
                assertEquals(1, report.partitions().size(), report.toString());
                PartitionResult r = report.partitions().get(0);
                assertEquals(PartitionResult.Result.COMMITTED, r.result(), r.toString());
                assertTrue(r.bytesOut() > S3Config.DEFAULT_PART_SIZE, "the retry is a multipart upload too: " + r);
                PartitionSnapshot committed = TestStores.snapshot(store, p);
                assertEquals(before.generation() + 1, committed.generation());
                assertEquals(1, committed.live().size());
                assertEquals(rowsBefore, TestStores.identities(TestStores.liveRows(store, p)));

                // GC aborts the killed child's upload once it is older than the grace, and only then.
                List<IncompleteUpload> listed = store.incompleteUploads(p.dataPrefix());
                assertEquals(pending, listed.stream().map(u -> PREFIX + "/" + u.key() + "#" + u.uploadId()).toList());
                assertEquals(List.of(), gc(store, Duration.ofHours(1), false).abortedUploads(), "within the grace");
                GcReport dry = gc(store, Duration.ZERO, true);
                assertEquals(1, dry.abortedUploads().size(), dry.toString());
                assertEquals(pending, inProgressUploads(server), "a dry run aborts nothing");
                GcReport real = gc(store, Duration.ZERO, false);
                assertEquals(dry.abortedUploads(), real.abortedUploads());
                assertEquals(List.of(), real.errors());
                assertEquals(List.of(), inProgressUploads(server), "the upload is aborted");
                assertEquals(List.of(), gc(store, Duration.ZERO, false).abortedUploads(), "idempotent");
                assertEquals(rowsBefore, TestStores.identities(TestStores.liveRows(store, p)));
            }
        }
    }

    private static GcReport gc(S3ObjectStore store, Duration grace, boolean dryRun) throws Exception {
        return new GarbageCollector(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                new GcOptions(grace, dryRun), Clock.systemUTC()).run(PartitionFilter.all());
    }

    /** Starts the child compactor and SIGKILLs it on its MULTIPART line; returns that line. */
    private static String runAndKill(S3ProxyServer server, Path dir, List<String> out) throws Exception {
        try (ChildJvm child = ChildJvm.main(Child.class).heap("384m").jvmArgs("-XX:+UseSerialGC")
                .property("org.slf4j.simpleLogger.defaultLogLevel", "warn")
                .args(server.endpoint().toString(), BUCKET, PREFIX, dir.resolve("scratch-child").toString())
                .start()) {
            Optional<String> line = child.tryAwaitLine(ChildJvm.Output.STDOUT, l -> l.startsWith("MULTIPART"),
                    Duration.ofMinutes(3));
            if (line.isPresent()) {
                // SIGKILL: no shutdown hook, no abort, no cleanup
                assertTrue(child.kill9(), "the child was still uploading");
                assertEquals(137, child.exitValue(), "SIGKILL exit status");
                child.stdoutLines().stream().takeWhile(l -> !l.startsWith("MULTIPART")).forEach(out::add);
                return line.get();
            }
            int exit = child.isAlive() ? -1 : child.waitFor(Duration.ofSeconds(30));
            throw new AssertionError("child " + (exit < 0 ? "still running after 3 minutes" : "ended (exit " + exit
                    + ")") + " without starting a multipart upload; stdout " + child.stdoutLines() + ", stderr "
                    + child.stderr());
        }
    }

    private static S3Client admin(S3ProxyServer server) {
        return S3Client.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        S3ProxyServer.IDENTITY, S3ProxyServer.CREDENTIAL))).build();
    }

    /** Every object key in the bucket, no delimiter, every page. */
    private static TreeSet<String> allKeys(S3ProxyServer server) {
        try (S3Client s3 = admin(server)) {
            TreeSet<String> keys = new TreeSet<>();
            s3.listObjectsV2Paginator(b -> b.bucket(BUCKET)).contents().stream().map(S3Object::key)
                    .forEach(keys::add);
            return keys;
        }
    }

    private static List<String> inProgressUploads(S3ProxyServer server) {
        try (S3Client s3 = admin(server)) {
            return s3.listMultipartUploads(b -> b.bucket(BUCKET)).uploads().stream()
                    .map(u -> u.key() + "#" + u.uploadId()).toList();
        } catch (RuntimeException e) {
            return List.of("(ListMultipartUploads failed: " + e.getMessage() + ")");
        }
    }

    /**
     * The child: one sweep of the store, with a watcher that prints {@code MULTIPART puts=N} once the store has
     * sent two PUT-class requests (nothing else in this sweep PUTs before the output's first part).
     * Arguments: endpoint bucket prefix scratch-dir.
     */
    public static final class Child {
        private Child() {
        }

        public static void main(String[] args) throws Exception {
            S3Config config = S3Config.of(args[1], args[2]).withEndpoint(URI.create(args[0]))
                    .withCredentials(new S3Credentials(S3ProxyServer.IDENTITY, S3ProxyServer.CREDENTIAL));
            try (S3ObjectStore store = new S3ObjectStore(config)) {
                Thread watcher = new Thread(() -> {
                    try {
                        // Checked every millisecond: the parent's kill must land while the first parts upload.
                        if (Await.poll(Duration.ofMinutes(5), Duration.ofMillis(1),
                                () -> store.counters().snapshot().puts() >= 2)) {
                            System.out.println("MULTIPART puts=" + store.counters().snapshot().puts());
                            System.out.flush();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "multipart-watcher");
                watcher.setDaemon(true);
                watcher.start();
                SweepRunner runner = CompactionWiring.sweepRunner(SweepSettings.of(store,
                        CompactionOptions.defaults(Path.of(args[3]))).withPlanClock(TestStores.LATER));
                SweepReport report = runner.sweep(PartitionFilter.all(), r -> System.out.println("RESULT " + r));
                System.out.println("DONE " + report);
            }
        }
    }
}
