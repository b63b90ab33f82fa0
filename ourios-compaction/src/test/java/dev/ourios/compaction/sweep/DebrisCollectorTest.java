package dev.ourios.compaction.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.TestStores;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Debris a killed compactor leaves outside data partitions: audit temp files and stale scratch entries. */
class DebrisCollectorTest {
    @TempDir
    Path dir;

    @Test
    void old_audit_temps_and_stale_scratch_are_removed_young_ones_and_foreign_files_kept() throws Exception {
        Instant now = Instant.parse("2026-11-29T12:00:00Z");
        Clock clock = Clock.fixed(now, ZoneOffset.UTC);
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 1, 5, 1)); // makes the tenant exist
        Path day = store.root().resolve("audit/tenant_id=acme/year=2026/month=11/day=29");
        Files.createDirectories(day);
        Path oldTemp = Files.writeString(day.resolve(".x.parquet.tmp-aaaa"), "partial");
        Path youngTemp = Files.writeString(day.resolve(".y.parquet.tmp-bbbb"), "partial");
        Path event = Files.writeString(day.resolve("01a22900-0000-7000-8000-000000000001.parquet"), "event");
        Files.setLastModifiedTime(oldTemp, FileTime.from(now.minus(Duration.ofHours(1))));
        Files.setLastModifiedTime(youngTemp, FileTime.from(now.minusSeconds(5)));
        Files.setLastModifiedTime(event, FileTime.from(now.minus(Duration.ofHours(1))));

        Path scratch = dir.resolve("scratch");
        Path staleSort = Files.createDirectories(scratch.resolve("sort-123"));
        Files.writeString(staleSort.resolve("run-000000.parquet"), "run");
        Path freshSort = Files.createDirectories(scratch.resolve("sort-456"));
        Path foreign = Files.writeString(scratch.resolve("notes.txt"), "mine");
        Files.setLastModifiedTime(staleSort, FileTime.from(now.minus(Duration.ofHours(7))));
        Files.setLastModifiedTime(freshSort, FileTime.from(now.minus(Duration.ofHours(1))));
        Files.setLastModifiedTime(foreign, FileTime.from(now.minus(Duration.ofDays(9))));

        DebrisCollector dry = new DebrisCollector(store, new TableLayout(store), scratch, Duration.ofMinutes(10),
                clock, true);
        assertEquals(2, dry.collect(PartitionFilter.all()));
        assertTrue(Files.exists(oldTemp) && Files.exists(staleSort), "a dry run deletes nothing");

        DebrisCollector real = new DebrisCollector(store, new TableLayout(store), scratch, Duration.ofMinutes(10),
                clock, false);
        assertEquals(2, real.collect(PartitionFilter.all()));
        assertFalse(Files.exists(oldTemp));
        assertFalse(Files.exists(staleSort));
        assertTrue(Files.exists(youngTemp) && Files.exists(event) && Files.exists(freshSort) && Files.exists(foreign));
        assertEquals(0, real.collect(PartitionFilter.all()), "idempotent");
    }
}
