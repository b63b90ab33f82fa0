package dev.ourios.compaction.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.TestStores;
import dev.ourios.compaction.plan.ScratchOwner;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.testkit.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debris a killed compactor leaves outside data partitions: audit temp files, and scratch entries whose owning
 * process is gone (deleted after the scratch debris age, with the bytes of everything under them counted). The
 * scratch of a running process is kept whatever its age.
 */
class DebrisCollectorTest {
    private static final Duration DEBRIS_AGE = Duration.ofMinutes(10);

    @TempDir
    Path dir;

    private static Path file(Path p, int bytes) throws Exception {
        Files.createDirectories(p.getParent());
        return Files.write(p, new byte[bytes]);
    }

    private static void age(Path p, Instant at) throws Exception {
        Files.setLastModifiedTime(p, FileTime.from(at));
    }

    /** The owner of a process that ran and exited: its pid is free (or reused, with another start time). */
    private static ScratchOwner deadOwner() throws Exception {
        try (ChildJvm child = ChildJvm.main(Exit0.class).name("scratch-owner").heap("32m").start()) {
            long pid = child.pid();
            long start = ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).map(Instant::toEpochMilli)
                    .orElse(1L);
            assertEquals(0, child.waitFor(Duration.ofMinutes(1)));
            return new ScratchOwner(pid, start);
        }
    }

    /** A child that exits at once: its pid names a process that is gone. */
    public static final class Exit0 {
        public static void main(String[] args) {
            System.exit(0);
        }
    }

    @Test
    void old_audit_temps_and_dead_owners_scratch_are_removed_with_their_bytes_the_rest_kept() throws Exception {
        Instant now = Instant.now();
        Clock clock = Clock.fixed(now, ZoneOffset.UTC);
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 1, 5, 1)); // makes the tenant exist
        java.time.LocalDate today = java.time.LocalDate.ofInstant(now, ZoneOffset.UTC);
        Path day = store.root().resolve(String.format("audit/tenant_id=acme/year=%04d/month=%02d/day=%02d",
                today.getYear(), today.getMonthValue(), today.getDayOfMonth()));
        Path oldTemp = file(day.resolve(".x.parquet.tmp-aaaa"), 700);
        Path youngTemp = file(day.resolve(".y.parquet.tmp-bbbb"), 7);
        Path event = file(day.resolve("01a22900-0000-7000-8000-000000000001.parquet"), 5);
        age(oldTemp, now.minus(Duration.ofHours(1)));
        age(youngTemp, now.minusSeconds(5));
        age(event, now.minus(Duration.ofHours(1)));

        ScratchOwner dead = deadOwner();
        ScratchOwner live = ScratchOwner.current();
        Path scratch = dir.resolve("scratch");
        Path deadSort = scratch.resolve(dead.prefix("sort") + "123");
        file(deadSort.resolve("run-000000.parquet"), 1000);
        file(deadSort.resolve("merge/run-000001.parquet"), 24);
        Path deadAudit = file(scratch.resolve(dead.prefix("audit") + "9.parquet"), 300);
        Path deadButYoung = scratch.resolve(dead.prefix("sort") + "456");
        file(deadButYoung.resolve("run-000000.parquet"), 50);
        Path liveAncient = scratch.resolve(live.prefix("sort") + "789");
        file(liveAncient.resolve("run-000000.parquet"), 60);
        Path unownedStale = scratch.resolve("sort-123");
        file(unownedStale.resolve("run-000000.parquet"), 4);
        Path unownedRecent = Files.createDirectories(scratch.resolve("sort-456"));
        Path foreign = file(scratch.resolve("notes.txt"), 3);
        age(deadSort, now.minus(Duration.ofMinutes(11)));
        age(deadAudit, now.minus(Duration.ofMinutes(30)));
        age(deadButYoung, now.minus(Duration.ofMinutes(9)));
        age(liveAncient, now.minus(Duration.ofDays(3)));
        age(unownedStale, now.minus(Duration.ofHours(7)));
        age(unownedRecent, now.minus(Duration.ofHours(1)));
        age(foreign, now.minus(Duration.ofDays(9)));

        DebrisCollector dry = new DebrisCollector(store, new TableLayout(store), scratch, Duration.ofMinutes(10),
                DEBRIS_AGE, clock, true);
        DebrisReport planned = dry.collect(PartitionFilter.all());
        assertEquals(4, planned.count(), planned.toString());
        assertEquals(700 + 1000 + 24 + 300 + 4, planned.bytes(), "directories count the files under them");
        assertTrue(Files.exists(oldTemp) && Files.exists(deadSort) && Files.exists(deadAudit),
                "a dry run deletes nothing");

        DebrisCollector real = new DebrisCollector(store, new TableLayout(store), scratch, Duration.ofMinutes(10),
                DEBRIS_AGE, clock, false);
        DebrisReport done = real.collect(PartitionFilter.all());
        assertEquals(planned, done);
        assertFalse(Files.exists(oldTemp));
        assertFalse(Files.exists(deadSort));
        assertFalse(Files.exists(deadAudit));
        assertFalse(Files.exists(unownedStale));
        for (Path kept : List.of(youngTemp, event, deadButYoung, liveAncient, unownedRecent, foreign)) {
            assertTrue(Files.exists(kept), kept + " was kept");
        }
        assertEquals(DebrisReport.NONE, real.collect(PartitionFilter.all()), "idempotent");
    }

    @Test
    void scratch_owner_names_round_trip_and_tell_live_from_gone() throws Exception {
        ScratchOwner me = ScratchOwner.current();
        assertEquals(Optional.of(me), ScratchOwner.parse(me.prefix("sort") + "8812345"));
        assertEquals(Optional.of(me), ScratchOwner.parse(me.prefix("audit") + "77.parquet"));
        assertEquals(Optional.empty(), ScratchOwner.parse("sort-8812345"));
        assertEquals(Optional.empty(), ScratchOwner.parse("sort-99999999999999999999-1-x"));
        assertTrue(me.isAlive());
        assertFalse(new ScratchOwner(me.pid(), me.startMillis() - 3_600_000).isAlive(), "a reused pid");
        assertFalse(deadOwner().isAlive());
    }
}
