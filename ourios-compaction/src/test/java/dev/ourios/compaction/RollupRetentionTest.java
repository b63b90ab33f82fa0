package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Retention;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.CommitKind;
import dev.ourios.table.DayPartition;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention over rolled-up hours (storage.md 4.12, 4.15): a covered hour past its retention is expired by its own
 * commit, which voids its cover, and a day whose every hour is expired is expired whole (its files retired, its covers
 * kept); the rows are gone at once, the files once GC passes the grace, and a day not yet expired is untouched.
 */
class RollupRetentionTest {
    private static final DayPartition FIRST = DayPartition.of(PartitionKey.ofHour("acme", TestStores.HOUR));
    private static final DayPartition SECOND = new DayPartition("acme", FIRST.date().plusDays(1));

    @TempDir
    Path dir;

    @Test
    void expiredCoveredHoursAndTheirDayGoWholeAndTheNextDayStays() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        // 10:00 on the first day to 15:00 on the second: two day partitions.
        TestStores.generate(store, TestStores.spec(List.of("acme"), 30, 2, 200, 23));
        CompactionOptions rollup = CompactionOptions.defaults(dir.resolve("scratch")).withRollup(true);
        sweep(store, rollup);
        TableReader reader = new TableReader(store, new ManifestCodec());
        assertTrue(reader.hourSnapshot(FIRST.hour(12)).isCovered());
        assertTrue(reader.hourSnapshot(SECOND.hour(3)).isCovered());
        long secondRows = TestStores.identities(DayRows.of(store, SECOND)).size();

        // The planning clock is 2026-12-01T00:00Z: with 29 days every hour of the first day is past it, none of the
        // second's.
        SweepReport r = sweep(store, rollup.withRetention(Retention.of(Duration.ofDays(29))));
        assertFalse(r.hasErrors(), r.toString());
        assertEquals(0, DayRows.of(store, FIRST).size(), "the first day's rows are gone at once");
        assertEquals(secondRows, DayRows.of(store, SECOND).size());
        QueryEngine engine = new QueryEngine(store, new TableLayout(store), reader, MeterProvider.noop());
        assertEquals(secondRows, engine.count(Query.tenant("acme")).rows());

        Manifest day = reader.daySnapshot(FIRST).manifest().orElseThrow();
        assertEquals(CommitKind.EXPIRE, day.commitRecord().orElseThrow().commitKind().orElseThrow());
        assertEquals(List.of(), day.files());
        assertEquals(14, day.covers().size(), "covers kept");
        for (int h = 10; h < 24; h++) {
            PartitionSnapshot s = reader.hourSnapshot(FIRST.hour(h));
            assertFalse(s.isCovered(), "expired by its own commit: " + s.listing());
            assertEquals(List.of(), s.live());
        }
        AuditEvent expiry = AuditEvent.ofDay(FIRST, day.generation(), day.commitRecord().get().complete().get());
        assertTrue(store.stat(AuditLog.keyOf(expiry)).isPresent(), "the day's expiry has its event");

        // A second sweep has nothing more to expire.
        SweepReport again = sweep(store, rollup.withRetention(Retention.of(Duration.ofDays(29))));
        assertEquals(0, again.count(PartitionResult.Result.COMMITTED), again.toString());

        // GC past the grace collects the day file and the hours' files; the second day is untouched.
        new GarbageCollector(store, new TableLayout(store), reader, new GcOptions(Duration.ofMinutes(10), false),
                Clock.offset(Clock.systemUTC(), Duration.ofDays(1))).run(PartitionFilter.all());
        assertEquals(List.of(), reader.daySnapshot(FIRST).retiredPresent());
        for (int h = 10; h < 24; h++) {
            PartitionSnapshot s = reader.hourSnapshot(FIRST.hour(h));
            assertEquals(List.of(), s.retiredPresent(), s.listing().toString());
        }
        assertEquals(secondRows, DayRows.of(store, SECOND).size());
    }

    private SweepReport sweep(LocalObjectStore store, CompactionOptions options) {
        return TestStores.runner(store, options.scratchDir(), options, MeterProvider.noop())
                .sweep(PartitionFilter.all(), x -> { });
    }
}
