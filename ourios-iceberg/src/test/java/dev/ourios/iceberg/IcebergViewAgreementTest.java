package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.LiveFiles;
import dev.ourios.query.Query;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Iceberg's own reader over the view agrees with {@code ourios query --count} and with DuckDB over {@code ourios
 * files}, for seeded random filters, before, during (retired inputs still present, late data beside the new
 * generation) and after a compaction; and it returns every stored value unchanged (nanosecond times, unsigned
 * columns, service names where a positional reader would put severities). A table rebuilt from scratch equals the
 * incrementally synced one, whose last sync read only the partitions a sweep committed.
 */
class IcebergViewAgreementTest {
    static final Instant START = Instant.parse("2026-03-10T08:00:00Z");
    static final List<String> TENANTS = List.of("acme", "other/tenant");

    @TempDir
    Path dir;

    @Test
    void agreesBeforeDuringAndAfterCompactionWithLateData() throws Exception {
        long seed = System.nanoTime();
        System.out.println("IcebergViewAgreementTest seed=" + seed);
        Random rnd = new Random(seed);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(TENANTS, START, 3, 3, 300, seed));
        Map<String, List<LogRecord>> rows = new TreeMap<>();
        try (ViewStore vs = new ViewStore(dir.resolve("store"))) {
            for (String t : TENANTS) {
                for (int h = 0; h < 3; h++) {
                    for (int f = 0; f < 3; f++) {
                        List<LogRecord> file = gen.file(t, h, f);
                        vs.ingest(gen.partition(t, h), file);
                        rows.computeIfAbsent(t, k -> new ArrayList<>()).addAll(file);
                    }
                }
            }
            SyncResult first = vs.sync();
            assertTrue(first.changed());
            assertEquals(1, first.version());
            assertEquals(18, first.filesAdded());
            assertEquals(6, first.partitionsChanged());
            check(vs, rows, gen, rnd, "before compaction");
            SyncResult again = vs.sync();
            assertFalse(again.changed(), "nothing changed, nothing committed");
            assertEquals(first.version(), again.version());

            // During: compacted, inputs retired but present, and late data landed beside the new generation.
            vs.compact(dir.resolve("scratch"));
            LogGenerator lateGen = new LogGenerator(GeneratorSpec.of(TENANTS, START, 3, 1, 200, seed + 1));
            for (String t : TENANTS) {
                List<LogRecord> late = lateGen.file(t, 1, 0);
                vs.ingest(gen.partition(t, 1), late);
                rows.get(t).addAll(late);
            }
            SyncResult during = vs.sync();
            assertTrue(during.changed());
            assertEquals(6, during.partitionsChanged());
            assertEquals(18, during.filesRemoved());
            assertEquals(6 + 2, during.filesAdded());
            check(vs, rows, gen, rnd, "after the commit, retired inputs present");

            // After: the late data compacted in too and the retired inputs collected; the sync reads only the
            // partitions the sweep committed.
            SweepReport sweep = vs.compact(dir.resolve("scratch"));
            SyncResult after = vs.sync(SyncScope.of(ViewStore.committed(sweep)));
            assertFalse(after.full());
            assertEquals(2, after.partitionsRead());
            assertEquals(2, after.partitionsChanged());
            vs.gc(Duration.ZERO, vs.retention());
            check(vs, rows, gen, rnd, "after compaction and GC");

            // A view rebuilt from nothing equals the incrementally synced one.
            ViewStore rebuilt = vs.withView(new ViewLayout("iceberg/rebuilt/"));
            rebuilt.sync();
            assertEquals(describe(vs), describe(rebuilt));
        }
    }

    /** Values, then counts of random filters through the three readers. */
    private void check(ViewStore vs, Map<String, List<LogRecord>> rows, LogGenerator gen, Random rnd, String when)
            throws Exception {
        // The view references exactly the live set.
        LiveFiles live = new LiveFiles(vs.store, vs.layout, vs.tables);
        List<String> livePaths = new ArrayList<>();
        for (String t : TENANTS) {
            live.list(t, Optional.empty(), Optional.empty()).forEach(f -> livePaths.add(vs.location.uri(f.key())));
        }
        List<String> viewPaths = IcebergView.currentFiles(vs.table(), vs.location).keySet().stream()
                .map(vs.location::uri).toList();
        assertEquals(livePaths.stream().sorted().toList(), viewPaths, when);

        // Partition pruning: a tenant and one hour plan exactly that partition's live files.
        PartitionKey hour1 = gen.partition(TENANTS.get(0), 1);
        try (var tasks = vs.table().newScan().filter(ViewStore.icebergFilter(Query.tenant(hour1.tenantId())
                .window(hour1.hourStart(), hour1.hourStart().plusSeconds(3600)))).planFiles()) {
            List<String> planned = new ArrayList<>();
            tasks.forEach(task -> planned.add(vs.location.key(task.file().location())));
            List<String> partitionLive = live.list(hour1.tenantId(), Optional.of(hour1.hourStart()),
                    Optional.of(hour1.hourStart().plusSeconds(3600))).stream().map(LiveFiles.LiveFile::key).toList();
            assertEquals(partitionLive, planned.stream().sorted().toList(), when + ": planned files");
        }
        for (String t : TENANTS) {
            List<String> expected = rows.get(t).stream().map(ViewStore::fingerprint).sorted().toList();
            List<String> actual = vs.icebergRows(Expressions.equal("tenant_id", t)).stream()
                    .map(ViewStore::fingerprint).sorted().toList();
            assertEquals(expected.size(), actual.size(), when + ": rows of " + t);
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i), actual.get(i), when + ": row " + i + " of " + t);
            }
        }
        for (int i = 0; i < 12; i++) {
            String t = TENANTS.get(rnd.nextInt(TENANTS.size()));
            List<LogRecord> all = rows.get(t);
            LogRecord pick = all.get(rnd.nextInt(all.size()));
            Query q = Query.tenant(t);
            if (rnd.nextBoolean()) {
                long lo = START.toEpochMilli() + rnd.nextLong(3 * 3600_000L);
                long len = 1000L + rnd.nextLong(rnd.nextBoolean() ? 120_000L : 7200_000L);
                q = q.window(Instant.ofEpochMilli(lo), Instant.ofEpochMilli(lo + len));
            }
            if (rnd.nextInt(3) == 0 && pick.serviceName() != null) {
                q = q.service(pick.serviceName());
            }
            if (rnd.nextInt(3) == 0) {
                q = q.severityMin(List.of(1, 9, 13, 17, 21).get(rnd.nextInt(5)));
            }
            long ours = vs.ourCount(q);
            long duck = vs.duckCount(q);
            long iceberg = vs.icebergRows(ViewStore.icebergFilter(q)).size();
            String msg = when + ": " + q;
            assertEquals(ours, duck, msg);
            assertEquals(ours, iceberg, msg);
            System.out.println(when + ": " + ours + " rows for " + q);
        }
    }

    /** The view's current files with everything engines plan on: partition, counts, metrics. */
    static SortedMap<String, String> describe(ViewStore vs) {
        Function<DataFile, String> d = f -> f.partition() + " rows=" + f.recordCount() + " size="
                + f.fileSizeInBytes() + " values=" + new TreeMap<>(f.valueCounts()) + " nulls="
                + new TreeMap<>(f.nullValueCounts()) + " lower=" + bounds(f.lowerBounds()) + " upper="
                + bounds(f.upperBounds());
        SortedMap<String, String> out = new TreeMap<>();
        withStats(vs).forEach((k, f) -> out.put(k, d.apply(f)));
        return out;
    }

    static SortedMap<String, DataFile> withStats(ViewStore vs) {
        SortedMap<String, DataFile> out = new TreeMap<>();
        try (var it = vs.table().newScan().includeColumnStats().planFiles()) {
            it.forEach(task -> out.put(vs.location.key(task.file().location()), task.file().copy()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    static String bounds(Map<Integer, java.nio.ByteBuffer> m) {
        return m == null ? "null" : new TreeMap<>(m).entrySet().stream()
                .map(e -> e.getKey() + "=" + dev.ourios.core.Bytes.hex(ViewStore.bytes(e.getValue())))
                .collect(Collectors.joining(",", "{", "}"));
    }
}
