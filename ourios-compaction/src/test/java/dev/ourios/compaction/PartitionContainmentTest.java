package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditCompactor;
import dev.ourios.testkit.ForeignParquet;
import dev.ourios.compaction.audit.AuditDay;
import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Retention;
import dev.ourios.core.Uuid7;
import dev.ourios.query.Query;
import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No failure escapes its partition or audit day: an {@code Error} that leaves the JVM usable (a class missing from
 * the classpath, a stack overflow, an assertion), raised while one partition's or day's files are read, becomes
 * that partition's (day's) one error line, the others commit, and a second sweep (the daemon's next) runs the same
 * way. Only an error that leaves the JVM unusable goes further. The errors are raised by a store that fails reads of
 * one partition's files, so they travel the product's real read paths (the rewriter's reader threads, the expiry's
 * footer reads, the audit day's file copy).
 */
class PartitionContainmentTest {
    private static final PartitionKey BAD = PartitionKey.ofHour("a", TestStores.HOUR);

    @TempDir
    Path dir;

    static Stream<Arguments> errors() {
        return Stream.of(
                Arguments.of("NoClassDefFoundError", (Supplier<Error>) () ->
                        new NoClassDefFoundError("org/xerial/snappy/Snappy")),
                Arguments.of("StackOverflowError", (Supplier<Error>) StackOverflowError::new),
                Arguments.of("AssertionError", (Supplier<Error>) () -> new AssertionError("page out of order")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void anErrorReadingOnePartitionIsThatPartitionsErrorLineAndTheOthersCommit(String name, Supplier<Error> error)
            throws Exception {
        LocalObjectStore base = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(base, TestStores.spec(List.of("a", "b"), 2, 3, 40, 11));
        PartitionSnapshot before = TestStores.snapshot(base, BAD);
        ObjectStore store = new FailingReads(base, BAD.dataPrefix(), error);

        List<PartitionResult> lines = new ArrayList<>();
        SweepReport first = CompactionWiring.sweepRunner(SweepSettings.of(store,
                CompactionOptions.defaults(dir.resolve("scratch"))).withPlanClock(TestStores.LATER))
                .sweep(PartitionFilter.all(), lines::add);

        assertEquals(1, first.count(PartitionResult.Result.ERROR), first.toString());
        assertEquals(3, first.count(PartitionResult.Result.COMMITTED), "the other partitions commit: " + first);
        assertTrue(first.hasErrors(), "the sweep reports the error (exit status 1)");
        assertTrue(first.errors().isEmpty(), "nothing but the partition's own line: " + first.errors());
        PartitionResult err = only(lines, PartitionResult.Result.ERROR);
        assertEquals(BAD, err.partition());
        assertTrue(err.error().startsWith(BAD.toString()), err.error());
        assertTrue(err.error().contains(name), "the line names the error: " + err.error());
        assertFalse(err.error().contains("\n"), "one line, no stack trace: " + err.error());
        assertEquals(before.live(), TestStores.snapshot(base, BAD).live(), "the failed partition is unchanged");
        assertEquals(0, TestStores.snapshot(base, BAD).generation());

        // The daemon's next sweep meets the same file and goes on the same way.
        SweepReport second = CompactionWiring.sweepRunner(SweepSettings.of(store,
                CompactionOptions.defaults(dir.resolve("scratch"))).withPlanClock(TestStores.LATER))
                .sweep(PartitionFilter.all(), r -> { });
        assertEquals(1, second.count(PartitionResult.Result.ERROR), second.toString());
        assertEquals(BAD, second.partitions().stream().filter(r -> r.result() == PartitionResult.Result.ERROR)
                .findFirst().orElseThrow().partition());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void anErrorReadingOneExpiredPartitionsFootersIsItsErrorLineAndTheOthersExpire(String name,
            Supplier<Error> error) throws Exception {
        LocalObjectStore base = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(base, TestStores.spec(List.of("a", "b"), 2, 2, 20, 12));
        ObjectStore store = new FailingReads(base, BAD.dataPrefix(), error);
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch"))
                .withRetention(Retention.of(Duration.ofDays(1)));

        SweepReport report = CompactionWiring.sweepRunner(SweepSettings.of(store, opts)
                .withPlanClock(TestStores.LATER)).sweep(PartitionFilter.all(), r -> { });

        assertEquals(1, report.count(PartitionResult.Result.ERROR), report.toString());
        assertEquals(3, report.partitions().stream().filter(r -> r.result() == PartitionResult.Result.COMMITTED
                && r.action() == CommitKind.EXPIRE).count(), report.toString());
        PartitionResult err = only(report.partitions(), PartitionResult.Result.ERROR);
        assertEquals(BAD + ": expiry: ", err.error().substring(0, (BAD + ": expiry: ").length()));
        assertTrue(err.error().contains(name), err.error());
        assertEquals(0, TestStores.snapshot(base, BAD).generation(), "the failed partition is unchanged");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void anErrorReadingOnePartitionOfADeletionIsItsErrorResultAndTheOthersCommit(String name,
            Supplier<Error> error) throws Exception {
        LocalObjectStore base = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(base, TestStores.spec(List.of("a"), 3, 2, 30, 13));
        ObjectStore store = new FailingReads(base, BAD.dataPrefix(), error);
        DeletionRequest request = new DeletionRequest(Query.tenant("a").window(TestStores.HOUR,
                TestStores.HOUR.plus(Duration.ofHours(3))));

        Deletion deletion = CompactionWiring.deletion(DeletionSettings.of(store,
                CompactionOptions.defaults(dir.resolve("scratch"))));
        List<DeletionResult> dry = deletion.run(request, true, r -> { });
        List<DeletionResult> done = deletion.run(request, false, r -> { });

        for (List<DeletionResult> results : List.of(dry, done)) {
            assertEquals(3, results.size(), results.toString());
            DeletionResult err = results.stream().filter(r -> r.status() == DeletionResult.Status.ERROR)
                    .findFirst().orElseThrow(() -> new AssertionError("no error result: " + results));
            assertEquals(BAD, err.partition());
            assertTrue(err.error().contains(name), err.error());
            assertEquals(1, results.stream().filter(r -> r.status() == DeletionResult.Status.ERROR).count());
        }
        assertEquals(2, done.stream().filter(r -> r.status() == DeletionResult.Status.COMMITTED).count(),
                done.toString());
        assertEquals(0, TestStores.snapshot(base, BAD).generation(), "the failed partition is unchanged");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void anErrorReadingOneAuditDayIsThatDaysErrorAndTheOtherDayCompacts(String name, Supplier<Error> error)
            throws Exception {
        LocalObjectStore base = new LocalObjectStore(dir.resolve("store"));
        AuditLog audit = new AuditLog(base, dir.resolve("audit-scratch"));
        LocalDate badDate = LocalDate.parse("2026-11-01");
        for (LocalDate date : List.of(badDate, badDate.plusDays(1))) {
            for (int i = 0; i < 3; i++) {
                Instant t = date.atStartOfDay().toInstant(ZoneOffset.UTC).plusSeconds(60L * i);
                audit.emit(new AuditEvent(PartitionKey.ofHour("acme", t), t, List.of("in-" + i + ".parquet"),
                        "out-" + i + ".compacted.parquet", i + 1, 100 + i));
            }
        }
        AuditDay bad = new AuditDay("acme", badDate);
        AuditDay good = new AuditDay("acme", badDate.plusDays(1));
        ObjectStore store = new FailingReads(base, bad.prefix(), error);
        TableReader reader = new TableReader(store, new ManifestCodec());
        AuditCompactor compactor = new AuditCompactor(store, reader,
                ManifestCommitter.forGcGrace(store, new ManifestCodec(), Clock.systemUTC(), Duration.ofMinutes(10)),
                new GarbageCollector(store, new TableLayout(store), reader,
                        new GcOptions(Duration.ofMinutes(10), false), Clock.systemUTC()),
                dir.resolve("s"), Clock.systemUTC(), Uuid7.system());

        List<AuditCompactor.DayResult> results = compactor.sweep(Optional.empty(), TestStores.LATER.instant());

        assertEquals(2, results.size(), results.toString());
        AuditCompactor.DayResult failed = results.stream().filter(r -> r.day().equals(bad)).findFirst()
                .orElseThrow();
        assertFalse(failed.committed());
        assertTrue(failed.error().startsWith(bad + ": "), failed.error());
        assertTrue(failed.error().contains(name), failed.error());
        AuditCompactor.DayResult compacted = results.stream().filter(r -> r.day().equals(good)).findFirst()
                .orElseThrow();
        assertTrue(compacted.committed(), compacted.toString());
        assertNull(compacted.error());
        assertEquals(0, reader.snapshot(PartitionKey.ofHour("acme",
                badDate.atStartOfDay().toInstant(ZoneOffset.UTC)), bad.prefix()).generation());
    }

    @Test
    void aFileWhoseSchemaNestsDeeperThanTheReadersStackIsOnlyItsPartitionsErrorLine() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("a", "b"), 2, 3, 40, 15));
        String hostile = BAD.dataPrefix() + Uuid7.system().next() + ".parquet";
        Files.write(store.root().resolve(hostile), ForeignParquet.deeplyNested(NESTING));
        PartitionSnapshot before = TestStores.snapshot(store, BAD);

        List<PartitionResult> lines = new ArrayList<>();
        SweepReport report = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(),
                lines::add);

        PartitionResult err = only(lines, PartitionResult.Result.ERROR);
        assertEquals(BAD, err.partition());
        assertTrue(err.error().contains(BAD.hourPath()) && err.error().contains(".parquet")
                && err.error().contains("nested deeper"),
                err.error());
        assertFalse(err.error().contains("\n"), err.error());
        assertEquals(3, report.count(PartitionResult.Result.COMMITTED), report.toString());
        assertEquals(before.live(), TestStores.snapshot(store, BAD).live(), "the failed partition is unchanged");
    }

    @Test
    void anAuditFileWhoseSchemaNestsDeeperThanTheReadersStackIsOnlyItsDaysError() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        AuditLog audit = new AuditLog(store, dir.resolve("audit-scratch"));
        LocalDate date = LocalDate.parse("2026-11-01");
        for (LocalDate d : List.of(date, date.plusDays(1))) {
            for (int i = 0; i < 2; i++) {
                Instant t = d.atStartOfDay().toInstant(ZoneOffset.UTC).plusSeconds(60L * i);
                audit.emit(new AuditEvent(PartitionKey.ofHour("acme", t), t, List.of("in-" + i + ".parquet"),
                        "out-" + i + ".compacted.parquet", i + 1, 100 + i));
            }
        }
        AuditDay bad = new AuditDay("acme", date);
        Files.write(store.root().resolve(bad.prefix() + Uuid7.system().next() + ".parquet"),
                ForeignParquet.deeplyNested(NESTING));
        // The audit series is compacted by the wall clock: one long after both days were sealed.
        SweepReport report = CompactionWiring.sweepRunner(SweepSettings.of(store,
                CompactionOptions.defaults(dir.resolve("scratch"))).withPlanClock(TestStores.LATER)
                .withWallClock(TestStores.LATER)).sweep(PartitionFilter.all(), r -> { });

        assertEquals(1, report.errors().size(), report.toString());
        assertTrue(report.errors().get(0).startsWith(bad + ": ")
                && report.errors().get(0).contains("nested deeper"), report.errors().get(0));
        TableReader reader = new TableReader(store, new ManifestCodec());
        AuditDay good = new AuditDay("acme", date.plusDays(1));
        assertEquals(1, reader.snapshot(PartitionKey.ofHour("acme", date.plusDays(1).atStartOfDay()
                .toInstant(ZoneOffset.UTC)), good.prefix()).generation(), "the other day compacted");
        assertEquals(0, reader.snapshot(PartitionKey.ofHour("acme", date.atStartOfDay().toInstant(ZoneOffset.UTC)),
                bad.prefix()).generation(), "the hostile day is as it was");
    }

    @Test
    void anErrorThatLeavesTheJvmUnusableIsNotContained() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("a"), 1, 2, 10, 14));
        RewriteProtocol protocol = new RewriteProtocol(
                ManifestCommitter.forGcGrace(store, new ManifestCodec(), Clock.systemUTC(), Duration.ofMinutes(10)),
                new AuditLog(store, dir.resolve("audit-scratch")));
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
        OutOfMemoryError thrown = assertThrows(OutOfMemoryError.class,
                () -> protocol.execute(new Throwing(TestStores.snapshot(store, BAD), oom)));
        assertSame(oom, thrown);

        AssertionError assertion = new AssertionError("an invariant of the reader");
        RewriteOutcome outcome = protocol.execute(new Throwing(TestStores.snapshot(store, BAD), assertion));
        RewriteOutcome.Failed failed = assertInstanceOf(RewriteOutcome.Failed.class, outcome);
        assertSame(assertion, failed.error());
        assertEquals(0, failed.generation(-1), "planned at generation 0");
        assertEquals(0, TestStores.snapshot(store, BAD).generation(), "nothing committed");
    }

    /** Group levels in {@link ForeignParquet#deeplyNested}: far more than a thread's default stack can recurse through. */
    private static final int NESTING = 100_000;


    private static PartitionResult only(List<PartitionResult> results, PartitionResult.Result kind) {
        List<PartitionResult> of = results.stream().filter(r -> r.result() == kind).toList();
        assertEquals(1, of.size(), results.toString());
        return of.get(0);
    }

    /** A plan whose rewrite step throws {@code error}: the protocol's containment seen on its own. */
    private static final class Throwing implements RewritePlan<RewriteOutcome> {
        private final PartitionSnapshot snapshot;
        private final Error error;

        Throwing(PartitionSnapshot snapshot, Error error) {
            this.snapshot = snapshot;
            this.error = error;
        }

        @Override
        public PlannedRewrite plan() {
            return PlannedRewrite.of(snapshot);
        }

        @Override
        public StagedRewrite rewrite(PlannedRewrite planned) {
            throw error;
        }

        @Override
        public Optional<AuditEvent> auditEvent(PlannedRewrite planned, CommitRecord record, long generation) {
            return Optional.empty();
        }

        @Override
        public RewriteOutcome report(RewriteOutcome outcome) {
            return outcome;
        }
    }

    /**
     * Fails every read of a Parquet file under {@code prefix} with a fresh error, as a file a codec class is missing
     * for, or one whose structure overflows the reader's stack, would; manifests and listings read as usual.
     */
    private static final class FailingReads extends ForwardingObjectStore {
        private final String prefix;
        private final Supplier<Error> error;

        FailingReads(ObjectStore delegate, String prefix, Supplier<Error> error) {
            super(delegate);
            this.prefix = prefix;
            this.error = error;
        }

        private void check(String key) {
            if (key.startsWith(prefix) && key.endsWith(".parquet")) {
                throw error.get();
            }
        }

        @Override
        public RandomAccessInput openRandomAccess(String key) throws IOException {
            check(key);
            return delegate.openRandomAccess(key);
        }

        @Override
        public InputStream openStream(String key) throws IOException {
            check(key);
            return delegate.openStream(key);
        }

        @Override
        public byte[] readAllBytes(String key) throws IOException {
            check(key);
            return delegate.readAllBytes(key);
        }
    }
}
