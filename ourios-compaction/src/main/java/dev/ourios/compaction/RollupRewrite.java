package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.DayScope;
import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.compaction.sort.HourServiceCounts;
import dev.ourios.compaction.verify.ChecksumMismatchException;
import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.footer.Footers;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.Cover;
import dev.ourios.table.CoverValidity;
import dev.ourios.table.DayCovers;
import dev.ourios.table.DayPartition;
import dev.ourios.table.Manifest;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.Retired;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * A rollup of one tenant-day as a {@link RewritePlan} (docs/spec/storage.md, "Rollup: small hours into day files"):
 * the day partition's live files (their rows of validly covered hours), every small hour not validly covered (its
 * whole live set) and the late ingest files of validly covered hours, merged into one file or a band in the day
 * partition, committed as the day's next generation with the hours covered at the generations they were planned on.
 * Before the create, every hour the commit covers is listed again; one whose generation moved makes the plan be made
 * again (at most {@link #ATTEMPTS} commits), so a cover is never written for a generation the hour has left.
 */
final class RollupRewrite implements RewritePlan<PartitionResult> {
    /** Commits a rollup may lose (to another rollup of the day, or an hour that moved) before it gives up. */
    static final int ATTEMPTS = 3;
    private static final int HOURS = 24;

    private final DayPartition day;
    private final TableReader reader;
    private final ObjectStore store;
    private final PartitionRewriter rewriter;
    private final CompactionOptions options;
    private final Clock clock;
    private final Predicate<PartitionSnapshot> atRest;
    /** A deletion request through the day partition (docs/spec/storage.md 4.13, 4.15); empty for a rollup. */
    private final Optional<DeletionRequest> deletion;
    /** The rewriter of a deletion, which leaves the request's rows out; null for a rollup. */
    private final SortedRewriter sorted;
    /** What the last plan step chose; a retry plans again. */
    private Selection selection;
    private RewriteResult written;
    /** The covers the commit writes: the plan's, with a rollup's rows and services as its rewrite counted them. */
    private List<Cover> covers;

    /**
     * @param atRest whether an hour is at rest: the hour policy has nothing to do for it (the sweep's hour
     *               compactions run first), so covering it does not race a compaction of the same sweep
     */
    RollupRewrite(DayPartition day, TableReader reader, ObjectStore store, PartitionRewriter rewriter,
            CompactionOptions options, Clock clock, Predicate<PartitionSnapshot> atRest) {
        this(day, reader, store, rewriter, options, clock, atRest, Optional.empty(), null);
    }

    /**
     * A deletion of {@code request}'s rows from the hours {@code day} validly covers: the day partition rewritten
     * without them (its dead rows dropped, the covered hours' late files consumed) and committed with the same
     * covers, as {@code kind: delete}; no hour is covered anew.
     */
    static RollupRewrite forDeletion(DayPartition day, TableReader reader, ObjectStore store, SortedRewriter rewriter,
            CompactionOptions options, Clock clock, DeletionRequest request) {
        return new RollupRewrite(day, reader, store, rewriter, options, clock, s -> false, Optional.of(request),
                rewriter);
    }

    private RollupRewrite(DayPartition day, TableReader reader, ObjectStore store, PartitionRewriter rewriter,
            CompactionOptions options, Clock clock, Predicate<PartitionSnapshot> atRest,
            Optional<DeletionRequest> deletion, SortedRewriter sorted) {
        this.deletion = deletion;
        this.sorted = sorted;
        this.atRest = atRest;
        this.day = day;
        this.reader = reader;
        this.store = store;
        this.rewriter = rewriter;
        this.options = options;
        this.clock = clock;
    }

    /**
     * What one plan step found: the hours the commit covers (each at the generation it was planned on, with the names
     * it accounts for and its rows outside the day files), the hour files it reads and the hours whose rows in the day
     * files are carried.
     */
    private record Selection(PartitionSnapshot daySnapshot, Map<Integer, Cover> covers, List<ObjectInfo> hourInputs,
            Map<String, PartitionKey> hourOf, Set<Integer> carried, boolean change, String reason) {
    }

    @Override
    public PlannedRewrite plan() throws Exception {
        DayCovers covers = reader.dayCovers(day);
        PartitionSnapshot daySnapshot = reader.daySnapshot(day);
        Map<Integer, Cover> next = new TreeMap<>();
        List<ObjectInfo> hourInputs = new ArrayList<>();
        Map<String, PartitionKey> hourOf = new HashMap<>();
        Set<Integer> carried = new TreeSet<>();
        boolean change = false;
        List<String> why = new ArrayList<>();
        for (int h = 0; h < HOURS; h++) {
            PartitionKey hour = day.hour(h);
            PartitionSnapshot s = reader.hourSnapshot(hour, covers);
            if (s.isCovered()) {
                Cover c = s.cover().get().cover();
                carried.add(h);
                Set<String> names = new TreeSet<>(c.names());
                long lateRows = 0;
                for (ObjectInfo late : s.live()) {
                    names.add(late.name());
                    lateRows += footerRows(late);
                    hourInputs.add(late);
                    hourOf.put(late.key(), hour);
                }
                if (!s.live().isEmpty()) {
                    change = true;
                    why.add(hour.hourLabel() + " late files");
                }
                next.put(h, new Cover(h, c.generation(), c.rows() + lateRows, List.copyOf(names)));
                continue;
            }
            if (covers.cover(h).filter(c -> c.rows() > 0).isPresent()) {
                change = true; // the day files hold dead rows of a void cover: this rewrite drops them
                why.add(hour.hourLabel() + " dead rows");
            }
            if (deletion.isEmpty() && small(s)) { // a deletion covers no hour anew
                Set<String> names = new TreeSet<>(s.liveNames());
                s.manifest().ifPresent(m -> m.retiredNames().stream().filter(FileNames::isIngestFile)
                        .forEach(names::add));
                long rows = 0;
                for (ObjectInfo f : s.live()) {
                    rows += footerRows(f);
                    hourInputs.add(f);
                    hourOf.put(f.key(), hour);
                }
                next.put(h, new Cover(h, s.generation(), rows, List.copyOf(names)));
                change = true;
                why.add(hour.hourLabel() + " covered");
            }
        }
        // A deletion rewrites the day whenever it covers an hour: the rewrite finds whether any row matches.
        boolean rewrite = change || (deletion.isPresent() && !next.isEmpty());
        selection = new Selection(daySnapshot, next, hourInputs, hourOf, carried, rewrite, String.join(", ", why));
        return PlannedRewrite.inDirectory(daySnapshot, day.prefix());
    }

    /**
     * A small hour at rest: live files, together below {@code small_file_bytes}, that the hour policy leaves as they
     * are, its manifest one of ours or none.
     */
    private boolean small(PartitionSnapshot s) {
        return !s.live().isEmpty() && !s.ruledByReference() && s.liveBytes() < options.smallFileBytes()
                && atRest.test(s);
    }

    private long footerRows(ObjectInfo f) throws IOException {
        try (RandomAccessInput in = store.openRandomAccess(f.key())) {
            return Footers.readRaw(in, store.describe(f.key())).getNum_rows();
        }
    }

    @Override
    public StagedRewrite rewrite(PlannedRewrite planned) throws Exception {
        Selection sel = selection;
        covers = List.copyOf(sel.covers().values()); // until the rewrite counts its rows
        if (!sel.change()) {
            return StagedRewrite.unchanged(0, 0);
        }
        if (sel.covers().isEmpty()) {
            // Every cover is void and no hour is to be covered: the day files hold dead rows only. They are retired
            // without a rewrite (nothing is carried), and the day covers nothing.
            if (deletion.isPresent()) {
                return StagedRewrite.unchanged(0, 0); // nothing covered: nothing of the day to delete from
            }
            List<ObjectInfo> files = sel.daySnapshot().live();
            CommitRecord record = new CommitRecord(CommitKind.ROLLUP, clock.instant(),
                    files.stream().map(ObjectInfo::name).sorted().toList(), null, 0, 0,
                    files.stream().mapToLong(ObjectInfo::size).sum(), 0, null, null);
            written = null;
            return StagedRewrite.toCommit(record, files.size(), 0, null, null, false);
        }
        List<ObjectInfo> inputs = new ArrayList<>(sel.daySnapshot().live());
        inputs.addAll(sel.hourInputs());
        // Names are UUIDv7s, unique across the day: name order is the tie-break's input order (storage.md §4.4).
        inputs.sort(Comparator.comparing(ObjectInfo::name));
        long bytesIn = inputs.stream().mapToLong(ObjectInfo::size).sum();
        long from = day.label().hourStartNanos();
        DayScope scope = new DayScope(day.prefix(), day.tenantId(), from, from + HOURS * 3_600_000_000_000L,
                sel.carried(), sel.hourOf());
        CompactionPlan plan = new CompactionPlan(day.label(), planned.generation(), inputs,
                RowGroupSizing.resolve(options.rowGroupBytes(), bytesIn, options.maxFileBytes()),
                options.sortBudgetBytes(), options.fanIn(), options.maxFileBytes(), Optional.of(scope));
        if (deletion.isPresent()) {
            RewriteResult rw = sorted.rewrite(plan, deletion.get().matches());
            written = rw;
            if (rw.rowsRemoved() == 0) {
                return StagedRewrite.unchanged(inputs.size(), rw.rowsIn());
            }
            boolean kept = rw.outputName() != null;
            if (kept) {
                covers = counted(sel.covers(), rw.hourCounts()); // the rows kept, as a rollup counts its own
            } // every row deleted: no day file, and the covers' rows stay an upper bound
            CommitRecord record = new CommitRecord(CommitKind.DELETE, clock.instant(), plan.inputNames(),
                    rw.rowsOut(), rw.rowsRemoved(), rw.bytesIn(), kept ? rw.bytesOut() : 0,
                    kept ? rw.outputChecksum() : null, deletion.get().toJson(), rw.outputNames());
            return StagedRewrite.toCommit(record, inputs.size(), rw.rowsIn(), rw.inputChecksum(),
                    rw.outputChecksum(), true);
        }
        RewriteResult rw = rewriter.rewrite(plan);
        written = rw;
        covers = counted(sel.covers(), rw.hourCounts());
        CommitRecord record = new CommitRecord(CommitKind.ROLLUP, clock.instant(), plan.inputNames(), rw.rowsOut(),
                rw.rowsRemoved(), rw.bytesIn(), rw.bytesOut(), rw.outputChecksum(), null, rw.outputNames());
        return StagedRewrite.toCommit(record, inputs.size(), rw.rowsIn(), rw.inputChecksum(), rw.outputChecksum(),
                true);
    }

    /**
     * {@code planned} with each cover's rows and services as the rewrite counted them (docs/spec/storage.md 4.15,
     * "Service counts"): exact, whatever the plan's footer counts were (an upper bound after a deletion); unchanged
     * when the rewriter did not count them.
     */
    private static List<Cover> counted(Map<Integer, Cover> planned, Optional<HourServiceCounts> counts) {
        if (counts.isEmpty()) {
            return List.copyOf(planned.values());
        }
        List<Cover> out = new ArrayList<>(planned.size());
        for (Cover c : planned.values()) {
            out.add(new Cover(c.hour(), c.generation(), counts.get().rows(c.hour()), c.names(),
                    Optional.of(counts.get().services(c.hour()))));
        }
        return List.copyOf(out);
    }

    /**
     * The day's next manifest: the outputs as its files (and main, when several), the previous files retired, the
     * covers of the plan; empty when an hour it covers has moved since the plan (listed again here, before the create).
     */
    @Override
    public Optional<Manifest> nextManifest(PlannedRewrite planned, CommitRecord record) throws IOException {
        for (Cover c : selection.covers().values()) {
            if (!CoverValidity.isValid(c, store.listObjects(day.hour(c.hour()).dataPrefix()))) {
                return Optional.empty();
            }
        }
        PartitionSnapshot daySnapshot = planned.snapshot();
        Instant at = record.at();
        Map<String, Retired> retired = new LinkedHashMap<>();
        daySnapshot.manifest().ifPresent(m -> m.retired().stream().filter(r -> daySnapshot.isPresent(r.file()))
                .forEach(r -> retired.put(r.file(), r)));
        daySnapshot.live().forEach(o -> retired.put(o.name(), new Retired(o.name(), at)));
        List<Retired> sortedRetired = retired.values().stream().sorted(Comparator.comparing(Retired::file)).toList();
        List<String> files = record.outputs().stream().sorted().toList();
        List<String> main = record.outputs().size() > 1 ? record.outputs() : List.of();
        return Optional.of(Manifest.ofDay(planned.generation() + 1, files, sortedRetired, record, main,
                covers));
    }

    @Override
    public Optional<AuditEvent> auditEvent(PlannedRewrite planned, CommitRecord record, long generation) {
        return Optional.of(AuditEvent.ofDay(day, generation, record)); // kind 7, partition …/day=DD/rollup
    }

    @Override
    public int attempts() {
        return ATTEMPTS;
    }

    @Override
    public PartitionResult report(RewriteOutcome outcome) {
        PartitionKey label = day.label();
        if (outcome instanceof RewriteOutcome.Committed c) {
            CommitRecord r = c.record();
            return new PartitionResult(label, PartitionResult.Result.COMMITTED, r.inputs().size(), r.rows(),
                    r.bytesIn(), r.bytesOut(), c.generation(), r.output(), r.inputs(), null,
                    "rollup of " + this.day + ": " + selection.reason(), c.seconds(), Optional.empty(),
                    CommitKind.ROLLUP, written == null ? List.of() : written.outputs());
        }
        if (outcome instanceof RewriteOutcome.Unchanged u) {
            return PartitionResult.noop(label, u.planned().generation(), PartitionCompactor.NOTHING_TO_ROLL_UP);
        }
        if (outcome instanceof RewriteOutcome.Lost l) {
            return PartitionResult.noop(label, l.planned().generation(), "rollup of " + day + ": lost the commit race "
                    + l.attempts() + " times (" + l.detail() + "); output left for GC");
        }
        if (outcome instanceof RewriteOutcome.Refused r) {
            return PartitionResult.error(label, r.planned().generation(), day + ": commit " + r.statusLabel() + ": "
                    + r.detail(), r.seconds());
        }
        if (outcome instanceof RewriteOutcome.Unverified u) {
            return PartitionResult.error(label, u.planned().generation(), day + ": "
                    + new ChecksumMismatchException(label, u.staged().inputChecksum(), u.staged().outputChecksum())
                            .getMessage(), u.seconds());
        }
        RewriteOutcome.Failed f = (RewriteOutcome.Failed) outcome;
        return PartitionResult.error(label, f.generation(-1), day + ": " + Containment.describeOrName(f.error()),
                f.seconds());
    }
}
