package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.PartitionFilter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit whose audit event was lost (the process died between commit and audit) gets its event however long
 * after the commit the next sweep runs, and exactly once: also once the day was compacted and its event files
 * collected.
 */
class AuditRepairAnyAgeTest {
    private static final Instant COMMITTED = Instant.parse("2026-11-02T00:30:00Z");

    @TempDir
    Path dir;

    private SweepRunner runnerAt(LocalObjectStore store, Instant wall) {
        return CompactionWiring.sweepRunner(SweepSettings.of(store, CompactionOptions.defaults(dir.resolve("scratch")))
                .withPlanClock(TestStores.LATER).withWallClock(Clock.fixed(wall, ZoneOffset.UTC))
                .withMeters(MeterProvider.noop()).withGcDryRun(false));
    }

    private Path day(LocalObjectStore store) {
        return store.root().resolve("audit/tenant_id=acme/year=2026/month=11/day=02");
    }

    private List<Path> eventFiles(LocalObjectStore store) throws Exception {
        try (Stream<Path> s = Files.list(day(store))) {
            return s.filter(p -> p.getFileName().toString().endsWith(".parquet")
                    && !p.getFileName().toString().startsWith(".")).sorted().toList();
        }
    }

    /** The day's live files, as its manifest says. */
    private List<Path> live(LocalObjectStore store) throws Exception {
        var snapshot = new dev.ourios.table.TableReader(store, new dev.ourios.table.ManifestCodec())
                .snapshot(dev.ourios.core.PartitionKey.ofHour("acme", Instant.parse("2026-11-02T00:00:00Z")),
                        "audit/tenant_id=acme/year=2026/month=11/day=02/");
        return snapshot.live().stream().map(o -> store.root().resolve(o.key())).sorted().toList();
    }

    /** Events of the day's files: (partition, generation) pairs, sorted; rows of every file on disk. */
    private static List<String> events(List<Path> files) throws Exception {
        Properties props = new Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        StringBuilder list = new StringBuilder();
        for (Path f : files) {
            list.append(list.length() == 0 ? "" : ",").append('\'').append(f).append('\'');
        }
        List<String> out = new java.util.ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:", props);
                ResultSet rs = c.createStatement().executeQuery("SELECT compaction_partition || ' g'"
                        + " || compaction_generation FROM read_parquet([" + list + "], union_by_name=true)"
                        + " WHERE event_type = 'compaction' ORDER BY 1")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void a_lost_event_is_reemitted_days_later_and_stays_once_after_the_day_is_compacted_and_collected()
            throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 2, 4, 30, 5));
        runnerAt(store, COMMITTED).sweep(PartitionFilter.all(), r -> { });
        List<Path> written = eventFiles(store);
        assertEquals(2, written.size(), "one event per committed partition");
        List<String> expected = events(written);

        // The process died between one commit and its audit event.
        Files.delete(written.get(0));
        // No sweep for three days: the next one re-emits it, and compacts the (now sealed) day of two events.
        runnerAt(store, COMMITTED.plus(Duration.ofDays(3))).sweep(PartitionFilter.all(), r -> { });
        assertEquals(expected, events(eventFiles(store).stream()
                .filter(p -> p.getFileName().toString().endsWith(".compacted.parquet")).toList()),
                "the day's compacted file holds both events");

        // What GC does once the grace has passed (its grace is measured on the files' real age, so the test does it
        // by hand): the merged event files, retired by the day's manifest, are deleted.
        List<Path> live = live(store);
        for (Path p : eventFiles(store)) {
            if (!live.contains(p)) {
                Files.delete(p);
            }
        }
        assertEquals(1, eventFiles(store).size());
        // A month later, a fresh process: the lost event's name is retired, so it is not emitted again.
        runnerAt(store, COMMITTED.plus(Duration.ofDays(30))).sweep(PartitionFilter.all(), r -> { });
        assertEquals(expected, events(live(store)), "every commit's event exactly once");
        assertEquals(live(store), eventFiles(store), "nothing written beside the live set");
    }
}
