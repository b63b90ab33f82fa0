package dev.ourios.query;

import dev.ourios.core.Columns;
import dev.ourios.core.Failures;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.RowTime;
import dev.ourios.parquet.index.IndexCondition;
import dev.ourios.parquet.read.ColumnTest;
import dev.ourios.parquet.read.FooterCache;
import dev.ourios.parquet.read.GroupStatistics;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.PartitionMismatchException;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.parquet.read.RowPrefilter;
import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.DayPartition;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one hour partition of a query: resolves its live set, opens every live file with the pushdown predicate,
 * checks and matches every row the pruning leaves (on the query's columns first, see {@link #prefilter}), and keeps
 * the partition's first rows in the query's order. Row groups are pruned by the pushdown predicate (statistics,
 * dictionaries, bloom filters) and by the files' token index for what the row filter requires of it.
 *
 * <p>With more than one thread, a partition is read by that many workers: each takes the next unread file, and a
 * worker that finds none left joins a file still being read, splitting its remaining row groups with the reader
 * already on it ({@link LogFileReader#openPartner}). Every worker keeps its own first rows and counters; they are
 * merged at the end, and since a hit's order key is (time, file ordinal, row position in the file) the result is
 * the same, row for row, whichever worker read what. Helper threads are started only when there is a second
 * file to read or a file with at least {@link ScanThreads#minSharedBytes} of kept row groups, and a file is shared only
 * while that much of it is left unread (a thread and a second reader cost more than a few small row groups).
 *
 * <p>A planned file can vanish before it is read: a compaction committed and GC collected its retired inputs
 * after the grace period. The partition is then re-resolved once and read again from scratch (its rows so far are
 * dropped, so nothing is returned twice); a second disappearance fails the query (STORAGE.md §4).
 */
final class PartitionScan {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionScan.class);
    private static final int ATTEMPTS = 2;
    /** Rows decoded between two checks for cancellation. */
    private static final int CANCEL_CHECK_ROWS = 256;

    private final ObjectStore store;
    private final TableReader tables;
    private final FooterCache footers;
    private final Query query;
    private final RowMatcher matcher;
    private final ScanCounters counters;
    private final int threads;
    /** Where the helpers of a partition's read run. */
    private final QueryThreads helperThreads;
    private final long minSharedBytes;
    private final Optional<FilterPredicate> predicate;
    private final Optional<FilterPredicate> predicateWithoutService;
    /** Null, or the query's claims of day partitions (see the constructor). */
    private final DayReads dayReads;
    /** The day partitions' snapshots this scan took, by day (see {@link #day}). */
    private final java.util.Map<DayPartition, PartitionSnapshot> days = new java.util.concurrent.ConcurrentHashMap<>();
    /** What the row filter requires of the files' token index (docs/spec/query.md, "The token index"). */
    private final IndexCondition indexCondition;

    PartitionScan(ObjectStore store, TableReader tables, FooterCache footers, Query query, ScanCounters counters,
            ScanThreads scanThreads, QueryThreads helperThreads) {
        this(store, tables, footers, query, counters, scanThreads, helperThreads, null);
    }

    /**
     * @param dayReads the query's shared claims of day partitions, when the order hours are read in does not matter
     *                 (a count, an aggregate over every row): each day file is then read once for the query's hours
     *                 it covers; null reads a covered hour's day files for that hour alone
     */
    PartitionScan(ObjectStore store, TableReader tables, FooterCache footers, Query query, ScanCounters counters,
            ScanThreads scanThreads, QueryThreads helperThreads, DayReads dayReads) {
        this.dayReads = dayReads;
        this.helperThreads = helperThreads;
        this.footers = footers;
        this.threads = scanThreads.threads();
        this.minSharedBytes = scanThreads.minSharedBytes();
        this.store = store;
        this.tables = tables;
        this.query = query;
        this.matcher = new RowMatcher(query);
        this.counters = counters;
        this.predicate = Pushdown.of(query, true);
        this.predicateWithoutService = Pushdown.of(query, false);
        this.indexCondition = query.condition().filter(IndexedCondition.class::isInstance).map(c -> ((IndexedCondition) c).indexCondition())
                .orElse(IndexCondition.ANY);
    }

    /** The partition's first {@code keep} matching rows, in the query's order. */
    List<Hit> scan(PartitionKey partition, long keep) throws IOException {
        return attempt(partition, files -> new PartitionRead(files, keep, false)
                .run().hits());
    }

    /**
     * The number of the partition's matching rows. Without a body substring or a row filter no row is decoded beyond
     * the query's columns (each row is still checked for the tenant and the partition).
     */
    long count(PartitionKey partition) throws IOException {
        if (dayReads != null && dayReads.readByAnotherHour(partition)) {
            counters.partitions++; // counted where its day's claim reads it
            return 0;
        }
        // An hour a day's claim reads with another hour (most hours of a rolled-up month) has no file: nothing to run.
        // A claim's reader adds the rows its covers counted (DayReads, CoverCounts) to those it reads.
        return attempt(partition, files -> (files.files().isEmpty() ? 0L : new PartitionRead(files, 0, true)
                .run().count()) + files.coverRows());
    }

    /**
     * Hands every matching row of the partition to a visitor; each scan thread gets its own from {@code visitors}.
     * Returns the visitors of the read that completed (a read repeated after a vanished file starts with fresh ones,
     * so no row is seen twice by what is returned). A visitor that returns false stops the read ({@code stop} is set
     * for the query's other partitions). With {@code columns}, a visitor that needs only those columns: when the
     * query needs no whole row either, the visitor is handed the rows as decoded for the query's columns and these
     * (others read as absent), and no row is decoded whole.
     */
    <V extends RowVisitor> Visited<V> visit(PartitionKey partition, Optional<Set<String>> columns,
            java.util.function.Supplier<V> visitors, java.util.concurrent.atomic.AtomicBoolean stop)
            throws IOException {
        return attempt(partition, files -> {
            List<V> made = java.util.Collections.synchronizedList(new ArrayList<>());
            PartitionRead read = new PartitionRead(files, 0, false);
            read.visiting = () -> {
                V v = visitors.get();
                made.add(v);
                return v;
            };
            read.stop = stop;
            // Only columns: with no condition on whole rows, the visitor sees each matching row as the prefilter
            // decoded it (the query's columns and those asked for), and nothing else of the row is decoded.
            read.visitColumns = columns.filter(c -> matcher.decidedByColumns());
            long rows = read.run().count();
            return new Visited<>(List.copyOf(made), rows);
        });
    }

    /** The visitors of a completed partition read and the number of rows they were handed. */
    record Visited<V>(List<V> visitors, long rows) {
    }

    @FunctionalInterface
    private interface SnapshotRead<T> {
        T read(HourFiles files) throws IOException;
    }

    /** Reads the partition's live set, re-resolving it once if a planned file vanished (see the class comment). */
    private <T> T attempt(PartitionKey partition, SnapshotRead<T> read) throws IOException {
        counters.partitions++;
        for (int attempt = 1; ; attempt++) {
            PartitionSnapshot daySnapshot = day(partition, attempt > 1);
            boolean claimed = dayReads != null && daySnapshot.manifest().isPresent();
            HourFiles files = claimed ? claimedFiles(partition, daySnapshot)
                    : HourFiles.resolve(tables, partition, daySnapshot);
            if (claimed && attempt > 1 && files.files().stream().map(o -> files.rules().apply(o.key()))
                    .anyMatch(r -> r.hours() != null || !r.partition().equals(partition))) {
                // A day file read for several hours vanished: the hours it was read for cannot be read again alone.
                throw new IOException("a file of the day partition " + DayPartition.of(partition).prefix()
                        + " vanished while the query read it (GC collected a superseded day generation); run the "
                        + "query again");
            }
            try {
                return read.read(files);
            } catch (IOException e) {
                Optional<NoSuchObjectException> gone = vanished(e);
                if (gone.isEmpty()) {
                    throw e;
                }
                if (attempt >= ATTEMPTS) {
                    throw new IOException("a planned file of " + partition + " vanished again after the partition was "
                            + "re-resolved: " + gone.get().getMessage(), e);
                }
                LOG.info("{}: a planned file vanished ({}); re-resolving the partition once", partition,
                        gone.get().getMessage());
            }
        }
    }

    /**
     * The day partition's snapshot for {@code hour}: taken once per day by the query (its {@link DayReads}, shared by
     * its scans) or by this scan (one listing per day a query visits, not per hour), again when {@code fresh} (a
     * re-resolution). Every hour of the day is then decided against
     * that one generation; its files stay readable for the GC grace after a later day commit retires them, as an
     * hour's own planned files do (storage.md §3.4).
     */
    private PartitionSnapshot day(PartitionKey hour, boolean fresh) throws IOException {
        DayPartition day = DayPartition.of(hour);
        if (dayReads != null && !fresh) {
            return dayReads.daySnapshot(tables, day); // one per query, shared by its scans
        }
        PartitionSnapshot known = fresh ? null : days.get(day);
        if (known == null) {
            known = tables.daySnapshot(day);
            days.put(day, known);
        }
        return known;
    }

    /**
     * The files {@code hour} reads under its day's claim ({@link DayReads}): the claim's day files and late files when
     * it is the claim's reader, nothing when another hour reads it with the day, else its own files (its cover was
     * void, or it had none, when the day was claimed), decided against the claim's day snapshot.
     */
    private HourFiles claimedFiles(PartitionKey hour, PartitionSnapshot daySnapshot) throws IOException {
        DayReads.Claim claim = dayReads.claim(tables, hour, daySnapshot);
        boolean inClaim = claim.hours().contains(hour.hour());
        if (inClaim && !claim.reader().equals(hour)) {
            return HourFiles.none(hour);
        }
        List<ObjectInfo> files = new ArrayList<>(claim.hours().isEmpty() || !claim.reader().equals(hour)
                ? List.of() : claim.files());
        java.util.Set<String> own = new java.util.HashSet<>();
        if (!inClaim) {
            PartitionSnapshot s = tables.hourSnapshot(hour, HourFiles.covers(DayPartition.of(hour), claim.day()));
            if (s.isCovered()) {
                throw new IllegalStateException("BUG: " + hour + " is covered by the day snapshot its day was claimed "
                        + "on, but not in the claim");
            }
            for (ObjectInfo o : s.live()) {
                files.add(o);
                own.add(o.key());
            }
        }
        files.sort(java.util.Comparator.comparing(ObjectInfo::key));
        long coverRows = claim.reader().equals(hour) ? claim.coverRows() : 0; // counted once, by the claim's reader
        return new HourFiles(hour, inClaim, files, key -> own.contains(key) ? FileRule.hourFile(hour)
                : claim.rule(key), coverRows);
    }

    /** A file being read whose kept row groups a worker with nothing else to do can share. */
    private record OpenFile(LogFileReader reader, int ordinal) {
    }

    /** One read of a partition's live files by {@link #threads} workers (the calling thread is the first). */
    private final class PartitionRead {
        private final PartitionKey partition;
        private final List<ObjectInfo> live; // sorted by key: the file ordinal of the tie-break
        private final long keep;
        /** Count the matching rows rather than keep them (see {@link #count}). */
        private final boolean counting;
        private final AtomicInteger nextFile = new AtomicInteger();
        private final ConcurrentLinkedQueue<OpenFile> shareable = new ConcurrentLinkedQueue<>();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final List<Worker> workers = new ArrayList<>();
        private final List<QueryThreads.Helper> helpers = new ArrayList<>();
        /** Visiting: each worker's visitor comes from here (null when keeping or counting). */
        java.util.function.Supplier<RowVisitor> visiting;
        /** Visiting on columns: the columns the visitors read (empty = whole rows). */
        Optional<Set<String>> visitColumns = Optional.empty();
        /** Visiting: set when a visitor asks to stop. */
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        /** The thread the query runs on: interrupting it cancels the read. */
        private final Thread caller = Thread.currentThread();

        /** What each file must hold and which of its rows count, by key. */
        private final java.util.function.Function<String, FileRule> rules;

        PartitionRead(HourFiles files, long keep, boolean counting) {
            this.partition = files.partition();
            this.live = files.files();
            this.rules = files.rules();
            this.keep = keep;
            this.counting = counting;
        }

        /** What the workers found: the first {@code keep} hits in order, or (counting) only their number. */
        record Outcome(List<Hit> hits, long count) {
        }

        Outcome run() throws IOException {
            Worker first = new Worker(true);
            workers.add(first);
            try {
                first.work();
            } catch (IOException | RuntimeException | Error e) {
                fail(e);
            } finally {
                joinHelpers();
                for (Worker w : workers) {
                    counters.add(w.counters);
                }
            }
            if (failure.get() != null) {
                Failures.rethrow(failure.get());
            }
            long count = 0;
            TopRows top = first.top;
            for (Worker w : workers) {
                count += w.counted;
                if (w != first) {
                    top.addAll(w.top);
                }
            }
            return new Outcome(counting ? List.of() : top.sorted(), count);
        }

        /** Starts the helpers once there is work for a second thread: another file, or enough of this one. */
        private void startHelpersFor(int file, LogFileReader reader) {
            if (threads == 1 || !helpers.isEmpty() || (file + 1 >= live.size() && !worthSharing(reader))) {
                return;
            }
            for (int i = 1; i < threads; i++) {
                Worker w = new Worker(false);
                workers.add(w);
                helpers.add(helperThreads.start(() -> {
                    try {
                        w.work();
                    } catch (IOException | RuntimeException | Error e) {
                        fail(e);
                    }
                }));
            }
        }

        private void joinHelpers() throws InterruptedIOException {
            for (QueryThreads.Helper t : helpers) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    fail(new InterruptedIOException("interrupted waiting for a scan thread of " + partition));
                    return;
                }
            }
        }

        /** Whether enough of a file being read is left unclaimed to give a second thread (see the class comment). */
        private boolean worthSharing(LogFileReader reader) {
            // a partner reader shares the file's prefilter, which calls its worker's own visitor: not shared then
            return visitColumns.isEmpty() && reader.unclaimedBytes() >= minSharedBytes;
        }

        /**
         * Ends this read when the query's thread was interrupted (its caller gave up, e.g. at its deadline) or
         * another worker failed: a slow scan (a regex-heavy row filter) never runs on after nobody waits for it.
         */
        private void stopIfCancelled() throws InterruptedIOException {
            if (caller.isInterrupted()) {
                throw new InterruptedIOException("the query of " + partition + " was cancelled");
            }
            if (failure.get() != null) {
                throw new InterruptedIOException("another scan thread of " + partition + " failed");
            }
        }

        private void fail(Throwable t) {
            Failures.keepFirst(failure, t);
        }

        /** The hits and counters of one thread. */
        private final class Worker {
            final TopRows top = new TopRows(Hit.order(query.order()), keep);
            final ScanCounters counters = new ScanCounters();
            final boolean first;
            final RowVisitor visitor;
            long counted;

            Worker(boolean first) {
                this.first = first;
                this.visitor = visiting == null ? null : visiting.get();
            }

            void work() throws IOException {
                while (failure.get() == null && !stop.get()) {
                    int f = nextFile.getAndIncrement();
                    if (f < live.size()) {
                        readFile(f);
                        continue;
                    }
                    OpenFile open = shareable.peek();
                    if (open == null) {
                        return;
                    }
                    Optional<LogFileReader> partner = worthSharing(open.reader()) ? open.reader().openPartner()
                            : Optional.empty();
                    if (partner.isEmpty()) {
                        shareable.remove(open); // (almost) every group taken: the next file, if any
                        continue;
                    }
                    try (LogFileReader r = partner.get()) {
                        drain(r, open.ordinal());
                    } finally {
                        counters.addBytes(partner.get());
                    }
                }
            }

            private void readFile(int fileOrdinal) throws IOException {
                String key = live.get(fileOrdinal).key();
                // A day file (storage.md 4.15) holds the whole day: only the rows of the hours read count.
                FileRule rule = rules.apply(key);
                boolean dayFile = rule.hours() != null;
                CheckedPrefilter checked = new CheckedPrefilter(store.describe(key), rule, query, matcher,
                        PartitionRead.this::stopIfCancelled);
                RowPrefilter rows = visitColumns.isPresent() ? new VisitingPrefilter(checked, visitColumns.get(), this)
                        : checked;
                LogFileReader reader = open(key, dayFile ? HourFiles.within(predicate, rule) : predicate, rows);
                if (query.service().isPresent() && !reader.fileSchema().containsField(Columns.SERVICE_NAME)) {
                    // An older file without the promoted column: the service predicate would prune it whole.
                    counters.addBytes(reader);
                    reader.close();
                    reader = open(key, dayFile ? HourFiles.within(predicateWithoutService, rule)
                            : predicateWithoutService, rows);
                }
                OpenFile open = new OpenFile(reader, fileOrdinal);
                try (LogFileReader r = reader) {
                    if (threads > 1 && worthSharing(r)) {
                        shareable.add(open);
                    }
                    if (first) {
                        startHelpersFor(fileOrdinal, r);
                    }
                    drain(r, fileOrdinal);
                } finally {
                    shareable.remove(open);
                    counters.addFile(reader);
                }
            }

            /** A matching row decoded on columns only (see {@link VisitingPrefilter}). */
            void visitPartial(LogRecord partial) throws InterruptedIOException {
                if (++sinceCancelCheck >= CANCEL_CHECK_ROWS) {
                    sinceCancelCheck = 0;
                    stopIfCancelled();
                }
                if (stop.get()) {
                    return;
                }
                counted++;
                if (!visitor.visit(partial)) {
                    stop.set(true);
                }
            }

            /** A row group proven to match throughout, offered to the visitor whole (see {@link GroupVisitor}). */
            boolean visitGroup(GroupVisitor v, GroupVisitor.MatchingGroup group) throws InterruptedIOException {
                stopIfCancelled();
                if (stop.get()) {
                    return true; // the visit is over: nothing more of the group is wanted
                }
                if (!v.visitGroup(group)) {
                    return false;
                }
                counted += group.rows();
                return true;
            }

            /** Rows tested since the last check for cancellation (column visits). */
            private int sinceCancelCheck;

            private void drain(LogFileReader r, int fileOrdinal) throws IOException {
                if (counting && matcher.decidedByColumns()) {
                    counted += r.countRest(); // the prefilter decides every row: nothing else is decoded
                    return;
                }
                int sinceCheck = 0;
                for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                    if (++sinceCheck == CANCEL_CHECK_ROWS) {
                        sinceCheck = 0;
                        stopIfCancelled();
                    }
                    if (matcher.matchesWholeRow(rec)) { // the prefilter decided all but the whole-row conditions
                        if (visitor != null) {
                            counted++;
                            if (!visitor.visit(rec)) {
                                stop.set(true);
                            }
                            if (stop.get()) {
                                return;
                            }
                        } else if (counting) {
                            counted++;
                        } else {
                            top.add(new Hit(RowTime.of(rec), fileOrdinal, r.rowIndex(), rec));
                        }
                    }
                }
            }
        }
    }

    private LogFileReader open(String key, Optional<FilterPredicate> filter, RowPrefilter rows) throws IOException {
        return LogFileReader.open(store, key, new ReadOptions(Optional.empty(), filter, Optional.of(rows))
                .withIndex(indexCondition), footers);
    }

    /**
     * The checks and conditions of {@link CheckedPrefilter} on the query's columns and those a visitor reads; a row
     * that passes goes to the worker's visitor there and is then rejected, so the reader decodes nothing more of it.
     */
    private static final class VisitingPrefilter implements RowPrefilter {
        private final CheckedPrefilter checked;
        /** The checks and conditions rows are tested with: {@link #checked}, or its view of a proven group. */
        private final RowPrefilter rows;
        private final Set<String> columns;
        private final PartitionRead.Worker worker;
        /** This prefilter for the groups {@link CheckedPrefilter#forGroup} proves (null: this is that one). */
        private final VisitingPrefilter provenGroups;

        VisitingPrefilter(CheckedPrefilter checked, Set<String> visitorColumns, PartitionRead.Worker worker) {
            this(checked, checked, visitorColumns, worker);
        }

        private VisitingPrefilter(CheckedPrefilter checked, RowPrefilter rows, Set<String> visitorColumns,
                PartitionRead.Worker worker) {
            this.checked = checked;
            this.rows = rows;
            Set<String> all = new java.util.HashSet<>(rows.columns());
            all.addAll(visitorColumns);
            this.columns = Set.copyOf(all);
            this.worker = worker;
            this.provenGroups = rows == checked ? new VisitingPrefilter(checked, checked.provenGroup, visitorColumns,
                    worker) : null;
        }

        @Override
        public Set<String> columns() {
            return columns;
        }

        @Override
        public List<ColumnTest> columnTests() {
            return rows.columnTests();
        }

        @Override
        public List<ColumnTest> columnGuards() {
            return rows.columnGuards();
        }

        @Override
        public List<ColumnTest> columnGuards(GroupStatistics group) {
            return rows.columnGuards(group);
        }

        @Override
        public boolean test(LogRecord partial, long rowIndex) throws IOException {
            if (rows.test(partial, rowIndex)) {
                worker.visitPartial(partial);
            }
            return false;
        }

        /** The visit of a group whose partition check its statistics prove: on fewer columns (see CheckedPrefilter). */
        @Override
        public RowPrefilter forGroup(GroupStatistics group) {
            return provenGroups != null && checked.forGroup(group) != checked ? provenGroups : this;
        }

        /** Every row that passes goes to the visitor here: the reader returns none. */
        @Override
        public boolean keepsNone() {
            return true;
        }

        /** A group the statistics prove matches throughout goes to a {@link GroupVisitor} whole, if it takes it. */
        @Override
        public boolean takesWholeGroup(GroupStatistics group) throws IOException {
            if (!(worker.visitor instanceof GroupVisitor visitor)) {
                return false;
            }
            if (checked.rule.proof() == null) {
                return false; // a day file read for several hours: no group is proven to be theirs alone
            }
            Optional<GroupStatistics.LongBounds> times = GroupProof.matchingTimes(checked.query, checked.rule.proof(),
                    group);
            return times.isPresent() && worker.visitGroup(visitor,
                    new GroupVisitor.MatchingGroup(group.rowCount(), times.get().min(), times.get().max(), group));
        }
    }

    /** Ends a read whose query was cancelled (see {@code PartitionRead.stopIfCancelled}). */
    @FunctionalInterface
    private interface CancelCheck {
        void check() throws InterruptedIOException;
    }

    /** Tenant isolation first (its own error, never a silent drop), then the row-vs-path rule, then the query. */
    private static final class CheckedPrefilter implements RowPrefilter {
        private final String file;
        private final PartitionKey partition;
        private final PartitionKey.Rows rows;
        private final Query query;
        private final String tenant;
        private final RowMatcher matcher;
        private final Set<String> columns;
        private final List<ColumnTest> columnTests;
        private final List<ColumnTest> columnGuards;
        /** The guards of a row group whose observed times are proven inside the hour (see {@link #columnGuards}). */
        private final List<ColumnTest> zeroTimeGuards;
        /** What the file must hold and which of its rows count (a day file's: those of the hours read). */
        private final FileRule rule;
        /**
         * Checked every {@link #CANCEL_CHECK_ROWS} rows tested: a count the prefilter decides whole (a search on its
         * columns) hands no row back to the scan, so the scan's own checks would not run until the file ends.
         */
        private final CancelCheck cancel;
        private int sinceCancelCheck;
        /** This prefilter for a row group whose statistics prove the partition check ({@link #forGroup}). */
        final ProvenGroup provenGroup;

        CheckedPrefilter(String file, FileRule rule, Query query, RowMatcher matcher, CancelCheck cancel) {
            this.file = file;
            this.cancel = cancel;
            this.query = query;
            String tenant = query.tenant();
            this.rule = rule;
            this.partition = rule.partition();
            this.rows = rule.rows();
            this.tenant = tenant;
            this.matcher = matcher;
            this.columns = matcher.columnsExceptText();
            this.columnGuards = guards(rows, false);
            this.zeroTimeGuards = guards(rows, true);
            this.columnTests = columnGuards.isEmpty() ? List.of() : withCountedHours(matcher.columnTests(), rule);
            this.provenGroup = new ProvenGroup();
        }

        /**
         * The prefilter of a row group whose statistics prove that every row has the partition's tenant and
         * effective hour (storage.md 2.5, "decided by statistics"): the file is a compaction output of this store
         * ({@link GroupStatistics#compactionOutput}), whose stored effective time is each row's, re-projected from
         * its source columns; the tenant column holds the partition's tenant in every row; the stored effective
         * times, none of them null, lie inside the rows the file must hold. Its rows are then tested on the
         * query's conditions alone, and time_unix_nano and observed_time_unix_nano are not read. Any other group
         * (another writer's file, a group without statistics, with nulls or with a time outside) is checked row
         * by row.
         */
        @Override
        public RowPrefilter forGroup(GroupStatistics group) {
            if (!group.compactionOutput() || columnGuards.isEmpty()
                    || GroupProof.constantString(group, Columns.TENANT_ID).filter(tenant::equals).isEmpty()) {
                return this;
            }
            Optional<GroupStatistics.LongBounds> effective = group.longBounds(Columns.EFFECTIVE_TIME);
            return effective.isPresent() && effective.get().min() >= rows.fromNanos()
                    && effective.get().max() < rows.toNanos() ? provenGroup : this;
        }

        /**
         * The rows of a group {@link #forGroup} proves: on the query's columns but the source times (unless a
         * condition reads them), with no guard (every row passes the checks), each tested on the hours read and
         * the query; the row's time is its stored effective time, which the proof says is the recomputed one.
         */
        final class ProvenGroup implements RowPrefilter {
            private final Set<String> provenColumns;

            ProvenGroup() {
                Set<String> c = new java.util.HashSet<>(columns);
                Set<String> conditions = matcher.conditionColumns();
                if (!conditions.contains(Columns.TIME)) {
                    c.remove(Columns.TIME);
                }
                if (!conditions.contains(Columns.OBSERVED_TIME)) {
                    c.remove(Columns.OBSERVED_TIME);
                }
                this.provenColumns = Set.copyOf(c);
            }

            @Override
            public Set<String> columns() {
                return provenColumns;
            }

            @Override
            public List<ColumnTest> columnTests() {
                return columnTests;
            }

            @Override
            public boolean columnTestsDecide() {
                return CheckedPrefilter.this.columnTestsDecide();
            }

            /** None: the group's statistics prove every row passes the checks. */
            @Override
            public List<ColumnTest> columnGuards(GroupStatistics group) {
                return List.of();
            }

            @Override
            public boolean test(LogRecord partial, long rowIndex) throws IOException {
                pollCancel();
                if (!rule.counts(RowTime.of(partial))) {
                    return false; // a day file's row of an hour not read here
                }
                return matcher.matchesExceptText(partial);
            }
        }

        /**
         * The query's column tests, and for a day file read for a contiguous run of hours a test that the effective
         * time lies in them: then a row the tests keep is one {@link FileRule#counts} counts, so the tests still
         * decide it. A day file read for hours with gaps between them has no such test ({@link #columnTestsDecide}).
         */
        private static List<ColumnTest> withCountedHours(List<ColumnTest> tests, FileRule rule) {
            if (rule.hours() == null || !contiguous(rule.hours())) {
                return tests;
            }
            List<ColumnTest> all = new java.util.ArrayList<>(tests);
            all.add(new ColumnTest.LongRange(Columns.EFFECTIVE_TIME, rule.fromNanos(), rule.toNanos() - 1, true));
            return List.copyOf(all);
        }

        private static boolean contiguous(Set<Integer> hours) {
            int min = hours.stream().mapToInt(Integer::intValue).min().orElse(0);
            int max = hours.stream().mapToInt(Integer::intValue).max().orElse(-1);
            return max - min + 1 == hours.size();
        }

        /**
         * Conditions under which {@link #test} does not throw: the partition's tenant's bytes, and a time_unix_nano inside
         * the partition's hour (then it is the row's effective time). A 0 leaves the observed time to decide: it passes
         * with {@code zeroTimePasses}, for a group whose observed times are proven inside the hour, and otherwise when
         * the row's observed time lies inside the hour (read for such rows alone). Empty when
         * a tenant id would not survive a round trip through UTF-8 (no byte comparison could then stand for the
         * string one): the column tests are off.
         */
        private static List<ColumnTest> guards(PartitionKey.Rows rows, boolean zeroTimePasses) {
            byte[] utf8 = rows.tenantId().getBytes(StandardCharsets.UTF_8);
            if (!new String(utf8, StandardCharsets.UTF_8).equals(rows.tenantId())) {
                return List.of();
            }
            long from = Math.max(1, rows.fromNanos());
            long to = rows.toNanos() - 1;
            return List.of(new ColumnTest.BytesEqual(Columns.TENANT_ID, utf8, false), zeroTimePasses
                    ? new ColumnTest.LongRange(Columns.TIME, from, to, false, true)
                    : new ColumnTest.LongRange(Columns.TIME, from, to, false, false, Columns.OBSERVED_TIME));
        }

        @Override
        public Set<String> columns() {
            return columns;
        }

        /**
         * The query's conditions on single columns: a row that fails one (and passes the guards) is not decoded, so
         * it is not checked either; its tenant and time columns said the checks hold.
         */
        @Override
        public List<ColumnTest> columnTests() {
            return columnTests;
        }

        @Override
        public List<ColumnTest> columnGuards() {
            return columnGuards;
        }

        /**
         * The query's column tests decide a row they pass on values ({@link RowMatcher#columnTestsDecide}), and the
         * guards make the checks hold: the row is the partition's tenant's, and its time_unix_nano (or, where a 0
         * passes, its observed time) lies in the partition's hour.
         */
        @Override
        public boolean columnTestsDecide() {
            return !columnTests.isEmpty() && matcher.columnTestsDecide()
                    && (rule.hours() == null || contiguous(rule.hours()));
        }

        /**
         * In a row group whose statistics prove every observed time inside the partition's hour, a time_unix_nano of 0
         * passes the time guard too: such a row's effective time is its observed time, so it cannot fail the check
         * either, and it need not be decoded when a column test rejects it (one row in a hundred of some SDKs'). A
         * group whose times are all set (minimum at least 1) keeps the plain guards: its observed times decide nothing.
         */
        @Override
        public List<ColumnTest> columnGuards(GroupStatistics group) {
            if (zeroTimeGuards.isEmpty() || group.longBounds(Columns.TIME).filter(t -> t.min() >= 1).isPresent()) {
                return columnGuards;
            }
            boolean observedInHour = group.longBounds(Columns.OBSERVED_TIME)
                    .filter(o -> o.min() >= rows.fromNanos() && o.max() < rows.toNanos()).isPresent();
            return observedInHour ? zeroTimeGuards : columnGuards;
        }

        /** Checks for cancellation every {@link #CANCEL_CHECK_ROWS} rows tested. */
        private void pollCancel() throws InterruptedIOException {
            if (++sinceCancelCheck >= CANCEL_CHECK_ROWS) {
                sinceCancelCheck = 0;
                cancel.check();
            }
        }

        @Override
        public boolean test(LogRecord partial, long rowIndex) throws IOException {
            pollCancel();
            if (!rows.holds(partial.tenantId(), partial.effectiveTime())) { // one comparison of each on the happy path
                if (!partial.tenantId().equals(tenant)) {
                    throw new TenantMismatchException(file, tenant, partial.tenantId());
                }
                throw new PartitionMismatchException(file, rowIndex, partition, partial.partitionKey());
            }
            if (!rule.counts(partial.effectiveTime())) {
                return false; // a day file's row of an hour not read here: read with that hour, if validly covered
            }
            return matcher.matchesExceptText(partial);
        }
    }

    /** The NoSuchObjectException behind e, if e means "a file is gone" (directly or wrapped by the reader). */
    private static Optional<NoSuchObjectException> vanished(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof NoSuchObjectException n) {
                return Optional.of(n);
            }
        }
        return Optional.empty();
    }
}
