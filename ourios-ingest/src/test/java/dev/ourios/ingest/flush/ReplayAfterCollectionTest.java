package dev.ourios.ingest.flush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.SweepSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.ingest.IngestMetrics;
import dev.ourios.ingest.IngestSettings;
import dev.ourios.ingest.Ingester;
import dev.ourios.otlp.OtlpLogsDecoder;
import dev.ourios.ingest.wal.Segment;
import dev.ourios.ingest.wal.SealedSegment;
import dev.ourios.query.LiveFiles;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.Await;
import dev.ourios.testkit.ChildJvm;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The widest recovery window, provoked for real: an ingester is SIGKILLed after publishing a flush and before
 * deleting its segment; while it is down the partitions are compacted, GC collects the flushed files, and late data
 * is compacted in (a commit after the collection); then the ingester starts and replays the segment. Every record must be read exactly once, by DuckDB over the live set, and
 * the replay must not land the collected files again. A copy of the segment flushed without that check (what a
 * replay that trusted the create-only publish alone would do) lands them, and they stay out of the live set.
 */
class ReplayAfterCollectionTest {
    static final String TENANT = "acme";
    private static final int PER_SEGMENT = 200;

    @TempDir
    Path dir;

    @Test
    void a_flush_published_before_a_crash_is_not_stored_again_after_compaction_and_gc() throws Exception {
        Path walDir = dir.resolve("wal");
        Path storeDir = dir.resolve("store");
        Files.createDirectories(storeDir);
        Instant firstHour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(4));

        String segmentName;
        try (ChildJvm child = ChildJvm.main(PublishThenHangMain.class).heap("256m").logDir(dir)
                .args(walDir.toString(), storeDir.toString(), Long.toString(firstHour.toEpochMilli()),
                        Integer.toString(PER_SEGMENT)).start()) {
            String line = child.awaitLine(Pattern.compile("^PUBLISHED "), Duration.ofMinutes(2));
            segmentName = line.substring("PUBLISHED ".length()).trim();
            assertTrue(child.kill9(), "the child is killed: " + child.output());
        }
        Path segmentPath = walDir.resolve(segmentName);
        assertTrue(Files.exists(segmentPath), "the killed ingester left its flushed segment");
        Segment segment = Segment.parse(segmentPath).orElseThrow();
        Path segmentCopy = dir.resolve("segment-copy.wal");
        Files.copy(segmentPath, segmentCopy);

        long firstNanos = firstHour.toEpochMilli() * 1_000_000L;
        List<PartitionKey> partitions = List.of(PartitionKey.of(TENANT, firstNanos),
                PartitionKey.of(TENANT, firstNanos + 3_600_000_000_000L));
        Map<PartitionKey, String> flushed = new HashMap<>();
        partitions.forEach(p -> flushed.put(p, FlushNames.of(segment, p, 0) + ".parquet"));

        try (LocalObjectStore store = new LocalObjectStore(storeDir)) {
            TableReader tables = new TableReader(store, new ManifestCodec());
            for (PartitionKey p : partitions) {
                assertTrue(tables.snapshot(p).isPresent(flushed.get(p)), "published before the crash: " + p);
            }

            // While the ingester is down: compact both (sealed) hours, then GC a day later collects the inputs.
            // Max tail ratio 0: the late file below folds into its hour, so that sweep commits a manifest.
            CompactionOptions options = CompactionOptions.defaults(dir.resolve("scratch")).withMaxTailRatio(0);
            SweepReport compacted = CompactionWiring.sweepRunner(SweepSettings.of(store, options)).sweep(PartitionFilter.all(), r -> { });
            assertEquals(2, compacted.count(PartitionResult.Result.COMMITTED), compacted.toString());
            Clock dayLater = Clock.offset(Clock.systemUTC(), Duration.ofDays(1));
            SweepReport collected = CompactionWiring.sweepRunner(SweepSettings.of(store, options).withPlanClock(dayLater)
                    .withWallClock(dayLater)).sweep(PartitionFilter.all(), r -> { });
            assertEquals(4, collected.gcDeleted(), "both hours' two ingest files: " + collected);
            for (PartitionKey p : partitions) {
                PartitionSnapshot s = tables.snapshot(p);
                assertFalse(s.isPresent(flushed.get(p)), "collected: " + p);
            }

            // Late data arrives and is compacted in: this commit's manifest is the first written after the
            // collection, and it must still retire the collected names.
            new IngestWriter(store).land(otlpRecords("late", firstNanos));
            SweepReport late = CompactionWiring.sweepRunner(SweepSettings.of(store, options)).sweep(PartitionFilter.all(), r -> { });
            assertEquals(2, late.count(PartitionResult.Result.COMMITTED), late.toString());
            for (PartitionKey p : partitions) {
                PartitionSnapshot s = tables.snapshot(p);
                assertEquals(2, s.generation());
                assertTrue(s.manifest().map(Manifest::retiredNames).orElseThrow().contains(flushed.get(p)),
                        "the manifest still names the collected file: " + p);
            }

            // The ingester starts again and replays the segment.
            IngestSettings settings = IngestSettings.defaults(new InetSocketAddress("127.0.0.1", 0), walDir);
            Ingester ingester = Ingester.open(settings, store, new IngestMetrics(MeterProvider.noop()));
            Await.until("the replayed segment is flushed and deleted", Duration.ofMinutes(1),
                    () -> !Files.exists(segmentPath));
            assertTrue(ingester.drain(Duration.ofSeconds(30)));
            for (PartitionKey p : partitions) {
                assertFalse(tables.snapshot(p).isPresent(flushed.get(p)), "the replay did not land it again: " + p);
            }
            assertExactlyOnce(store, tables);

            // Without the check, the replay would land the files again: they must stay out of the live set.
            SegmentFlusher unchecked = new SegmentFlusher(new IngestWriter(store), tables, new OtlpLogsDecoder(),
                    FlushListener.NONE);
            Segment copy = new Segment(segmentCopy, segment.sequence(), segment.id());
            assertEquals(2, unchecked.flush(new SealedSegment(copy, Files.size(segmentCopy), true), false).size());
            for (PartitionKey p : partitions) {
                assertTrue(tables.snapshot(p).isPresent(flushed.get(p)), "landed again: " + p);
            }
            assertExactlyOnce(store, tables);
        }
    }

    /** Records {@code <prefix>-<i>} over two hours from {@code firstNanos}, as the receiver decodes them. */
    static List<dev.ourios.core.LogRecord> otlpRecords(String prefix, long firstNanos) {
        ScopeLogs.Builder scope = ScopeLogs.newBuilder();
        for (int i = 0; i < PER_SEGMENT; i++) {
            scope.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(firstNanos + (i % 2) * 3_600_000_000_000L + i)
                    .setBody(AnyValue.newBuilder().setStringValue(prefix + "-" + i)));
        }
        ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder()
                .addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(scope)).build();
        return new OtlpLogsDecoder().decode(TENANT, req).records();
    }

    /** DuckDB over the live set: every record of both segments and the late ones, each once. */
    private static void assertExactlyOnce(LocalObjectStore store, TableReader tables) throws Exception {
        List<String> paths = new LiveFiles(store, new TableLayout(store), tables)
                .paths(TENANT, Optional.empty(), Optional.empty());
        assertEquals(2, paths.size(), "one compacted file per hour: " + paths);
        String list = paths.stream().map(p -> "'" + p + "'").collect(Collectors.joining(",", "[", "]"));
        Properties props = new Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        Map<String, Long> seen = new HashMap<>();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:", props);
                Statement st = duck.createStatement();
                ResultSet rs = st.executeQuery("SELECT body, count(*) FROM read_parquet(" + list + ") GROUP BY body")) {
            while (rs.next()) {
                seen.put(rs.getString(1), rs.getLong(2));
            }
        }
        Map<String, Long> expected = Stream.of("s1", "s2", "late")
                .flatMap(s -> java.util.stream.IntStream.range(0, PER_SEGMENT).mapToObj(i -> s + "-" + i))
                .collect(Collectors.toMap(b -> b, b -> 1L));
        assertEquals(expected, seen);
    }
}
