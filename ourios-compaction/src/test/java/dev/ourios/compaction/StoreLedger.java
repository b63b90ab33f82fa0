package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.LandingLedger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What a crash test expects of a store: every row that was acknowledged (its ingest file landed), by partition,
 * kept by a {@link LandingLedger} as the test lands late files; plus the checks and the recovery of a crashed
 * store. A crash may change which files hold the rows, never which rows are there.
 */
final class StoreLedger {
    private final LocalObjectStore store;
    private final LandingLedger<PartitionKey, LogRecord> ledger = new LandingLedger<>(TestStores::identity);

    StoreLedger(LocalObjectStore store) throws IOException {
        this.store = store;
        for (PartitionKey p : partitions()) {
            ledger.addBase(p, TestStores.liveRows(store, p));
        }
    }

    List<PartitionKey> partitions() throws IOException {
        return new TableLayout(store).partitions(PartitionFilter.all());
    }

    /**
     * Lands one late ingest file of those of {@code rows} not landed before, and adds them to the expectation (the
     * rows are acknowledged once the write returns).
     */
    void land(PartitionKey p, Collection<LogRecord> rows) throws IOException {
        List<LogRecord> fresh = ledger.claim(p, rows);
        int file = ledger.beginLate(p, fresh);
        new IngestWriter(store).writeFile(p, fresh);
        ledger.completeLate(file);
    }

    /** Every partition reads (a clean generation) and holds exactly the expected rows: none lost, none doubled. */
    void assertRowsIntact(String context) throws IOException {
        assertEquals(new TreeSet<>(ledger.partitions()), new TreeSet<>(partitions()), context);
        for (PartitionKey p : ledger.partitions()) {
            List<String> expected = ledger.acknowledged(p);
            List<String> actual = TestStores.identities(TestStores.liveRows(store, p));
            assertEquals(expected.size(), actual.size(), context + ": row count of " + p);
            assertEquals(expected, actual, context + ": row identities of " + p);
        }
    }

    /**
     * Recovery as an operator would run it: one in-process sweep (default GC grace, real clock) that folds every
     * tail into its hour ({@code max-tail-ratio} 0, so the end state is one file per partition whatever tails the
     * crashed children left), then GC with a clock past that grace, so everything the sweep and the crashes left
     * behind is old enough to go.
     */
    void converge(Path scratch) throws IOException {
        CompactionOptions opts = CompactionOptions.defaults(scratch).withMaxTailRatio(0);
        SweepReport report = CompactionWiring.sweepRunner(SweepSettings.of(store, opts).withPlanClock(TestStores.LATER))
                .sweep(PartitionFilter.all(), r -> { });
        assertTrue(!report.hasErrors(), "recovery sweep: " + report);
        TableReader reader = new TableReader(store, new ManifestCodec());
        Clock pastGrace = Clock.offset(Clock.systemUTC(), opts.gcGrace().plus(Duration.ofMinutes(1)));
        var gc = new GarbageCollector(store, new TableLayout(store), reader, new GcOptions(opts.gcGrace(), false),
                pastGrace).run(PartitionFilter.all());
        assertTrue(gc.errors().isEmpty(), "recovery gc: " + gc.errors());
    }

    /**
     * The converged state: per partition exactly one live file, the expected rows, only the current manifest, no
     * retired file, orphan or temp file, and the audit event of the current generation present (re-emitted by the
     * recovery sweep if a crash lost it).
     */
    void assertConverged(String context) throws IOException {
        assertRowsIntact(context);
        AuditLog audit = new AuditLog(store, store.root().resolveSibling("unused-audit-scratch")); // exists() only
        for (PartitionKey p : ledger.partitions()) {
            PartitionSnapshot s = TestStores.snapshot(store, p);
            String ctx = context + ": " + p + " " + s.listing();
            assertEquals(1, s.live().size(), ctx);
            assertEquals(List.of(), s.retiredPresent(), ctx);
            assertEquals(List.of(), s.orphans(), ctx);
            assertEquals(List.of(), s.temps(), ctx);
            assertEquals(List.of(), s.supersededManifests(), ctx);
            assertEquals(List.of(), s.ignored(), ctx);
            if (s.generation() > 0) {
                CommitRecord c = s.manifest().orElseThrow().commitRecord().orElseThrow().complete().orElseThrow();
                AuditEvent ev = new AuditEvent(p, c.at(), c.inputs(), c.output(), s.generation(), c.rows());
                assertTrue(audit.exists(ev), ctx + ": audit event of generation " + s.generation() + " missing");
            }
        }
    }

    /** Temp files anywhere under the store root (partitions and the audit tree), for reporting. */
    List<Path> tempFilesAnywhere() throws IOException {
        try (Stream<Path> s = Files.walk(store.root())) {
            return s.filter(Files::isRegularFile)
                    .filter(f -> dev.ourios.core.FileNames.isTempFile(f.getFileName().toString())).toList();
        }
    }

    /** Summed over partitions: how many objects of each debris kind a listing shows now. */
    Debris debris() throws IOException {
        int temps = 0;
        int orphans = 0;
        int retired = 0;
        int superseded = 0;
        for (PartitionKey p : partitions()) {
            PartitionSnapshot s = TestStores.snapshot(store, p);
            temps += s.temps().size();
            orphans += s.orphans().size();
            retired += s.retiredPresent().size();
            superseded += s.supersededManifests().size();
        }
        return new Debris(temps, orphans, retired, superseded);
    }

    record Debris(int temps, int orphans, int retired, int supersededManifests) {
    }
}
