package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditCompactor;
import dev.ourios.compaction.audit.AuditDay;
import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.audit.AuditLogAccess;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit series is compacted: a sealed day with many event files becomes one compacted file, committed through
 * the day's own manifest, while a writer keeps adding events to that same day; readers of the day's live files
 * (DuckDB here) see every event exactly once before, during and after, plus one {@code audit_compaction} row per
 * compaction; the compaction's own event lives inside its output, so a day without new event files is never
 * compacted again (no recursion); GC collects the merged event files after the grace.
 */
class AuditCompactionTest {
    private static final LocalDate DAY = LocalDate.parse("2026-11-01");

    @TempDir
    Path dir;

    private static AuditEvent event(int i) {
        Instant t = DAY.atStartOfDay().toInstant(java.time.ZoneOffset.UTC).plusSeconds(60L * i);
        return new AuditEvent(PartitionKey.ofHour("acme", Instant.parse("2026-11-01T10:00:00Z")), t,
                List.of("in-" + i + ".parquet"), "out-" + i + ".compacted.parquet", i + 1, 100 + i);
    }

    @Test
    void aSealedDayCompactsIntoOneFileWhileEventsKeepLandingAndEveryEventIsReadOnce() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        AuditLog audit = new AuditLog(store, dir.resolve("audit-scratch"));
        for (int i = 0; i < 30; i++) {
            audit.emit(event(i));
        }
        AuditDay day = new AuditDay("acme", DAY);
        SweepRunner runner = runner(store, Duration.ofHours(1));
        AtomicInteger next = new AtomicInteger(30);
        AtomicBoolean stop = new AtomicBoolean();
        List<Map<Long, Integer>> seenByReaders = new ArrayList<>();
        // A writer keeps landing events in the day being compacted; a reader keeps reading the day's live files.
        Thread writer = new Thread(() -> {
            AuditLog w = new AuditLog(store, dir.resolve("writer-scratch"));
            while (!stop.get() && next.get() < 200) {
                try {
                    w.emit(event(next.getAndIncrement()));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }, "audit-writer");
        writer.start();
        List<String> readerErrors = new ArrayList<>();
        Thread reader = new Thread(() -> {
            while (!stop.get()) {
                try {
                    Map<Long, Integer> seen = generations(store, day, false);
                    synchronized (seenByReaders) {
                        seenByReaders.add(seen);
                    }
                } catch (Exception e) {
                    synchronized (readerErrors) {
                        readerErrors.add(String.valueOf(e));
                    }
                }
            }
        }, "audit-reader");
        reader.start();
        SweepReport first = runner.sweep(PartitionFilter.all(), r -> { });
        stop.set(true);
        writer.join(60_000);
        reader.join(60_000);
        assertTrue(first.errors().isEmpty(), first.errors().toString());
        assertTrue(readerErrors.isEmpty(), readerErrors.toString());
        for (Map<Long, Integer> seen : seenByReaders) {
            assertTrue(seen.values().stream().allMatch(n -> n == 1), "a reader saw an event twice: " + seen);
        }
        int written = next.get();

        PartitionSnapshot s = snapshot(store, day);
        assertEquals(1, s.generation());
        // The second sweep folds in what the writer landed after the first plan; then the day holds one file and
        // further sweeps change nothing: the compaction's own event is inside its output.
        runner.sweep(PartitionFilter.all(), r -> { });
        PartitionSnapshot second = snapshot(store, day);
        assertEquals(1, second.live().size());
        long generation = second.generation();
        for (int i = 0; i < 3; i++) {
            runner.sweep(PartitionFilter.all(), r -> { });
        }
        assertEquals(generation, snapshot(store, day).generation(), "no recursion: nothing left to compact");

        Map<Long, Integer> seen = generations(store, day, false);
        assertEquals(written, seen.size(), "every event of the day once");
        assertTrue(seen.values().stream().allMatch(n -> n == 1), seen.toString());
        assertEquals(generation, generations(store, day, true).values().stream().mapToInt(Integer::intValue).sum(),
                "one audit_compaction row per compaction of the day");

        // GC with a zero grace collects the merged event files; the day keeps one live file.
        runner(store, Duration.ZERO).sweep(PartitionFilter.all(), r -> { });
        PartitionSnapshot collected = snapshot(store, day);
        assertEquals(List.of(), collected.retiredPresent());
        assertEquals(1, collected.listing().stream().filter(o -> o.name().endsWith(".parquet")).count());
    }

    @Test
    void aDayIsNotCompactedBeforeItIsSealed() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        AuditLog audit = new AuditLog(store, dir.resolve("audit-scratch"));
        for (int i = 0; i < 3; i++) {
            audit.emit(event(i));
        }
        AuditDay day = new AuditDay("acme", DAY);
        Instant justBefore = day.end().plus(AuditCompactor.SEAL).minusSeconds(1);
        AuditCompactor compactor = new AuditCompactor(store, new TableReader(store, new ManifestCodec()),
                dev.ourios.table.ManifestCommitter.forGcGrace(store, new ManifestCodec(), Clock.systemUTC(),
                        Duration.ofMinutes(10)),
                new dev.ourios.table.GarbageCollector(store, new dev.ourios.table.TableLayout(store),
                        new TableReader(store, new ManifestCodec()),
                        new dev.ourios.table.GcOptions(Duration.ofMinutes(10), false), Clock.systemUTC()),
                dir.resolve("s"), Clock.systemUTC(), dev.ourios.core.Uuid7.system());
        assertEquals(List.of(), compactor.sweep(java.util.Optional.empty(), justBefore));
        assertEquals(0, snapshot(store, day).generation());
        assertEquals(1, compactor.sweep(java.util.Optional.empty(), justBefore.plusSeconds(1)).size());
        assertEquals(1, snapshot(store, day).generation());
    }

    @Test
    void eventFilesOfAnOlderAuditSchemaAreCompactedWithTheirColumnsKept() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        AuditLog audit = new AuditLog(store, dir.resolve("audit-scratch"));
        audit.emit(event(0));
        // An event file of the audit schema before rows_removed existed, as an older build wrote it.
        org.apache.parquet.schema.MessageType old = new org.apache.parquet.schema.MessageType("audit_event",
                AuditLogAccess.schema().getFields().stream().filter(f -> !f.getName().equals("rows_removed"))
                        .toList());
        Path local = dir.resolve("old.parquet");
        org.apache.parquet.example.data.Group g = new org.apache.parquet.example.data.simple.SimpleGroupFactory(old)
                .newGroup().append("tenant_id", "acme").append("timestamp", 1_793_500_000_000_000_000L)
                .append("event_kind", 3).append("event_type", "compaction")
                .append("compaction_partition", "year=2026/month=11/day=01/hour=10");
        g.addGroup("compaction_input_files").addGroup("list").append("element", "a.parquet");
        g.append("compaction_output_file", "b.compacted.parquet").append("compaction_generation", 99L)
                .append("compaction_rows", 7L);
        try (var w = org.apache.parquet.hadoop.example.ExampleParquetWriter.builder(
                new org.apache.parquet.io.LocalOutputFile(local)).withConf(
                        new org.apache.parquet.conf.PlainParquetConfiguration()).withType(old).build()) {
            w.write(g);
        }
        AuditDay day = new AuditDay("acme", DAY);
        store.put(day.prefix() + dev.ourios.core.Uuid7.system().next() + ".parquet",
                java.nio.file.Files.readAllBytes(local));
        runner(store, Duration.ofHours(1)).sweep(PartitionFilter.all(), r -> { });
        assertEquals(1, snapshot(store, day).live().size());
        Map<Long, Integer> seen = generations(store, day, false);
        assertEquals(Map.of(1L, 1, 99L, 1), seen, "both events, the older one with its columns");
    }

    private SweepRunner runner(LocalObjectStore store, Duration gcGrace) {
        return CompactionWiring.sweepRunner(SweepSettings.of(store, CompactionOptions.defaults(dir.resolve("scratch"))
                .withGcGrace(gcGrace)).withPlanClock(TestStores.LATER));
    }

    private static PartitionSnapshot snapshot(LocalObjectStore store, AuditDay day) throws Exception {
        return new TableReader(store, new ManifestCodec()).snapshot(
                PartitionKey.ofHour(day.tenantId(), day.date().atStartOfDay().toInstant(java.time.ZoneOffset.UTC)),
                day.prefix());
    }

    /**
     * How often each event (by generation, unique per test event) appears in the day's live files, read by DuckDB;
     * {@code compactions}: the audit_compaction rows instead, by their generation.
     */
    private static Map<Long, Integer> generations(LocalObjectStore store, AuditDay day, boolean compactions)
            throws Exception {
        List<ObjectInfo> live = snapshot(store, day).live();
        Map<Long, Integer> out = new HashMap<>();
        if (live.isEmpty()) {
            return out;
        }
        Properties props = new Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        String files = live.stream().map(o -> "'" + store.describe(o.key()) + "'").collect(Collectors.joining(","));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:", props);
                ResultSet rs = c.createStatement().executeQuery("SELECT compaction_generation FROM read_parquet(["
                        + files + "], union_by_name = true) WHERE event_type " + (compactions ? "=" : "<>")
                        + " 'audit_compaction'")) {
            while (rs.next()) {
                out.merge(rs.getLong(1), 1, Integer::sum);
            }
        }
        return out;
    }
}
