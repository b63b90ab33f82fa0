package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.compaction.verify.Verifier;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Retention;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention with an injected planning clock: as the clock moves past each hour's end plus the tenant's retention,
 * a sweep expires that partition by a commit of generation N+1 with {@code files: []} that retires every live file,
 * writes an {@code expire} audit event, and GC collects the retired files after the grace like any others. Hours
 * and tenants inside their retention are compacted as usual.
 */
class RetentionSweepTest {
    private static final Instant H0_END = TestStores.HOUR.plus(Duration.ofHours(1));
    private static final Duration KEEP = Duration.ofDays(3);

    @TempDir
    Path dir;

    @Test
    void aSweepExpiresEachHourOnceTheClockPassesItsEndPlusTheRetention() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        GeneratorSpec spec = TestStores.spec(List.of("acme", "beta"), 2, 3, 200, 7);
        TestStores.generate(store, spec);
        PartitionKey acme0 = PartitionKey.ofHour("acme", TestStores.HOUR);
        PartitionKey acme1 = PartitionKey.ofHour("acme", H0_END);
        PartitionKey beta0 = PartitionKey.ofHour("beta", TestStores.HOUR);
        long acme0Rows = TestStores.liveRows(store, acme0).size();
        Set<String> acme0Files = TestStores.snapshot(store, acme0).liveNames();
        // beta keeps its logs for a year: nothing of it expires in this test.
        Retention retention = Retention.of(KEEP).withTenant("beta", Duration.ofDays(365));

        // One nanosecond before hour 0 expires: nothing expires, both tenants' hours compact.
        SweepReport early = sweep(store, retention, H0_END.plus(KEEP).minusNanos(1), Duration.ofHours(1));
        assertEquals(4, early.count(PartitionResult.Result.COMMITTED), early.toString());
        assertTrue(early.partitions().stream().allMatch(r -> r.action() == CommitKind.COMPACT), early.toString());
        long compactedRows = TestStores.liveRows(store, acme0).size();
        assertEquals(acme0Rows, compactedRows);
        Set<String> compacted = TestStores.snapshot(store, acme0).liveNames();

        // At hour 0's end plus the retention: acme's hour 0 expires, its hour 1 and beta do not.
        SweepReport at = sweep(store, retention, H0_END.plus(KEEP), Duration.ofHours(1));
        assertEquals(1, at.partitions().size(), at.toString());
        PartitionResult r = at.partitions().get(0);
        assertEquals(acme0, r.partition());
        assertEquals(CommitKind.EXPIRE, r.action());
        assertEquals(PartitionResult.Result.COMMITTED, r.result());
        assertEquals(acme0Rows, r.rows(), "rows counted from the footers");
        assertEquals(2, r.generation());

        PartitionSnapshot s = TestStores.snapshot(store, acme0);
        Manifest m = s.manifest().orElseThrow();
        assertEquals(List.of(), m.files());
        assertEquals(List.of(), s.live(), "the expired partition reads empty");
        assertTrue(s.retiredPresent().stream().map(ObjectInfo::name).collect(Collectors.toSet()).containsAll(compacted),
                "the compacted file is retired, not deleted: a reader of generation 1 still finds it");
        CommitRecord c = m.commitRecord().orElseThrow().complete().orElseThrow();
        assertEquals(CommitKind.EXPIRE, c.kind());
        assertEquals(acme0Rows, c.rowsRemoved());
        assertEquals("retention 3d", c.reason());
        assertTrue(new AuditLog(store, dir).exists(AuditEvent.of(acme0, 2, c)), "the expire event is written");
        assertEquals(1, TestStores.snapshot(store, acme1).generation(), "acme's hour 1 is inside the retention");
        assertEquals(1, TestStores.snapshot(store, acme1).live().size());
        assertEquals(1, TestStores.snapshot(store, beta0).generation(), "beta keeps its hour");

        // Verify passes on the expired partition: nothing is live, nothing is missing.
        Verifier v = new Verifier(store, new TableLayout(store), new TableReader(store, new ManifestCodec()));
        Verifier.PartitionVerdict verdict = v.verify(acme0);
        assertEquals(Verifier.Status.OK, verdict.status(), verdict.problems().toString());

        // A later sweep finds nothing live to expire; with a zero GC grace the retired file goes.
        SweepReport later = sweep(store, retention, H0_END.plus(KEEP).plusSeconds(60), Duration.ZERO);
        assertEquals(0, later.partitions().size(), later.toString());
        assertTrue(later.gcDeleted() > 0);
        PartitionSnapshot gone = TestStores.snapshot(store, acme0);
        assertEquals(List.of(), gone.retiredPresent());
        assertEquals(List.of(), gone.live());
        for (String f : acme0Files) {
            assertTrue(!gone.isPresent(f), f + " collected");
        }
    }

    @Test
    void lateDataLandingInAnExpiredHourIsExpiredByTheNextSweep() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        GeneratorSpec spec = TestStores.spec(List.of("acme"), 1, 2, 100, 11);
        TestStores.generate(store, spec);
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        Retention retention = Retention.of(KEEP);
        Instant now = H0_END.plus(KEEP);
        SweepReport first = sweep(store, retention, now, Duration.ofHours(1));
        assertEquals(1, first.count(PartitionResult.Result.COMMITTED), first.toString());
        assertEquals(1, TestStores.snapshot(store, p).generation(), "expired at generation 1, never compacted");

        // A writer that does not know the retention lands late data into the hour: visible until the next sweep.
        TestStores.generate(store, spec.withSeed(12));
        assertEquals(2, TestStores.snapshot(store, p).live().size());
        SweepReport second = sweep(store, retention, now, Duration.ofHours(1));
        assertEquals(CommitKind.EXPIRE, second.partitions().get(0).action(), second.toString());
        PartitionSnapshot s = TestStores.snapshot(store, p);
        assertEquals(2, s.generation());
        assertEquals(List.of(), s.live());
        assertEquals(4, s.retiredPresent().size(), "both expiries' files wait for GC");
    }

    private SweepReport sweep(LocalObjectStore store, Retention retention, Instant now, Duration gcGrace) {
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMinFiles(1)
                .withGcGrace(gcGrace).withRetention(retention);
        SweepRunner runner = CompactionWiring.sweepRunner(SweepSettings.of(store, opts)
                .withPlanClock(Clock.fixed(now, ZoneOffset.UTC)));
        SweepReport report = runner.sweep(PartitionFilter.all(), x -> { });
        assertTrue(report.errors().isEmpty(), report.toString());
        return report;
    }
}
