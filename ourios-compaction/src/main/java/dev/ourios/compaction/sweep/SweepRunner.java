package dev.ourios.compaction.sweep;

import dev.ourios.compaction.Containment;
import dev.ourios.compaction.PartitionCompactor;
import dev.ourios.compaction.PartitionExpirer;
import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.audit.AuditCompactor;
import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.CompactionPolicy;
import dev.ourios.compaction.plan.PlanDecision;
import dev.ourios.compaction.share.ShareProcesses;
import dev.ourios.compaction.share.ShareSampler;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Retention;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.DayPartition;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcReport;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestException;
import dev.ourios.table.ManifestKeys;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.RecordedCommit;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sweep (the schedule; policy and mechanism are injected): GC over every partition in scope, then plan every
 * partition (an hour past its tenant's retention is expired instead, before any compaction), then compact the
 * candidates oldest first, up to {@code concurrency} at a time. An error in one
 * partition or tenant is recorded and the sweep goes on. {@link #requestStop()} (SIGTERM) stops it between
 * partitions: nothing new starts, running ones finish.
 *
 * <p>{@code clock} is the planning clock (which hours are sealed); {@code wallClock} is real time, compared with
 * commit timestamps when looking for audit events lost in a crash.
 */
public final class SweepRunner {
    private static final Logger LOG = LoggerFactory.getLogger(SweepRunner.class);
    /**
     * Partitions whose latest commit's audit event this runner has found recorded, by generation: a later sweep
     * checks a partition again only once it has committed again, so the repair costs one check per commit, however
     * old. Bounded: cleared when it reaches this many partitions (the next sweep checks each once more).
     */
    static final int AUDITED_MEMO_LIMIT = 1_000_000;
    private final Map<PartitionKey, Long> audited = new java.util.concurrent.ConcurrentHashMap<>();

    private final TableLayout layout;
    private final TableReader reader;
    private final GarbageCollector gc;
    private final CompactionPolicy policy;
    private final PartitionCompactor compactor;
    private final AuditLog audit;
    private final CompactionMetrics metrics;
    private final Clock clock;
    private final Clock wallClock;
    private final DebrisCollector debris;
    private final int concurrency;
    private final Shard shard;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final Retention retention;
    private final PartitionExpirer expirer;
    private AuditCompactor auditCompactor;
    /** The options of the rollup when sweeps roll small hours up into day partitions; null when they do not. */
    private CompactionOptions rollup;

    public SweepRunner(TableLayout layout, TableReader reader, GarbageCollector gc, CompactionPolicy policy,
            PartitionCompactor compactor, AuditLog audit, CompactionMetrics metrics, Clock clock, Clock wallClock,
            int concurrency) {
        this(layout, reader, gc, policy, compactor, audit, metrics, clock, wallClock, concurrency, Shard.ALL);
    }

    /**
     * @param shard the partitions this runner plans and compacts; GC is not sharded: it is idempotent, so every
     *              compactor collecting every partition is safe, and no partition goes uncollected when a shard's
     *              process is down or the shard count changes
     */
    public SweepRunner(TableLayout layout, TableReader reader, GarbageCollector gc, CompactionPolicy policy,
            PartitionCompactor compactor, AuditLog audit, CompactionMetrics metrics, Clock clock, Clock wallClock,
            int concurrency, Shard shard) {
        this(layout, reader, gc, policy, compactor, audit, metrics, clock, wallClock, concurrency, shard, null);
    }

    /** As above, also collecting debris outside the data partitions (audit temp files, stale scratch) each sweep. */
    public SweepRunner(TableLayout layout, TableReader reader, GarbageCollector gc, CompactionPolicy policy,
            PartitionCompactor compactor, AuditLog audit, CompactionMetrics metrics, Clock clock, Clock wallClock,
            int concurrency, Shard shard, DebrisCollector debris) {
        this(layout, reader, gc, policy, compactor, audit, metrics, clock, wallClock, concurrency, shard, debris,
                Retention.NONE, null);
    }

    /**
     * As above, also expiring every partition whose whole hour is older than its tenant's {@code retention} (by the
     * planning clock) through {@code expirer}. An expired hour is never compacted.
     */
    public SweepRunner(TableLayout layout, TableReader reader, GarbageCollector gc, CompactionPolicy policy,
            PartitionCompactor compactor, AuditLog audit, CompactionMetrics metrics, Clock clock, Clock wallClock,
            int concurrency, Shard shard, DebrisCollector debris, Retention retention, PartitionExpirer expirer) {
        if (!retention.isNone() && expirer == null) {
            throw new IllegalArgumentException("BUG: a retention without an expirer");
        }
        this.retention = retention;
        this.expirer = expirer;
        this.debris = debris;
        this.layout = layout;
        this.reader = reader;
        this.gc = gc;
        this.policy = policy;
        this.compactor = compactor;
        this.audit = audit;
        this.metrics = metrics;
        this.clock = clock;
        this.wallClock = wallClock;
        this.concurrency = concurrency;
        this.shard = shard;
    }

    public void requestStop() {
        stopping.set(true);
    }

    public boolean stopRequested() {
        return stopping.get();
    }

    /** Plans without changing anything: the candidates and why. */
    public List<PlanDecision> plan(PartitionFilter filter, List<String> errors) {
        Instant now = clock.instant();
        List<PlanDecision> decisions = new ArrayList<>();
        List<PartitionKey> partitions;
        try {
            partitions = layout.partitions(filter).stream().filter(this::mayPlan).toList();
        } catch (Throwable t) {
            errors.add("listing partitions: " + Containment.describe(Containment.contain(t)));
            return decisions;
        }
        for (PartitionKey p : partitions) {
            if (!shard.owns(p)) {
                sharedCandidate(p, now).ifPresent(c -> decisions.add(PlanDecision.compact(c.plan(),
                        "another shard's hour, shared: a group of its shares is this compactor's")));
                continue;
            }
            try {
                if (retention.isExpired(p, now)) {
                    continue; // expired, never compacted: see expiries()
                }
                PartitionSnapshot s = reader.hourSnapshot(p);
                if (s.isCovered()) {
                    continue; // its rows are in its day partition: never planned by the hour policy, as in sweep()
                }
                decisions.add(policy.decide(p, s.generation(), s.live(), mainFiles(s), now));
            } catch (Throwable t) {
                errors.add(p + ": " + Containment.describe(Containment.contain(t)));
            }
        }
        return decisions;
    }

    /** Plans the expiries without changing anything: the snapshots of expired partitions that still hold live files. */
    public List<PartitionSnapshot> expiries(PartitionFilter filter, List<String> errors) {
        Instant now = clock.instant();
        List<PartitionSnapshot> out = new ArrayList<>();
        if (retention.isNone()) {
            return out;
        }
        List<PartitionKey> partitions;
        try {
            partitions = layout.partitions(filter).stream().filter(shard::owns)
                    .filter(p -> retention.isExpired(p, now)).toList();
        } catch (Throwable t) {
            errors.add("listing partitions: " + Containment.describe(Containment.contain(t)));
            return out;
        }
        for (PartitionKey p : partitions) {
            try {
                PartitionSnapshot s = reader.hourSnapshot(p);
                if (!s.live().isEmpty() || s.isCovered()) {
                    out.add(s); // a covered hour expires by its own commit, which voids its cover, as in sweep()
                }
            } catch (Throwable t) {
                errors.add(p + ": " + Containment.describe(Containment.contain(t)));
            }
        }
        return out;
    }

    /**
     * Also compacts the audit series at the end of each sweep (sealed days with more than one file), with the wall
     * clock, since audit events are dated by it. Called once, by the wiring, before the first sweep.
     */
    /**
     * Rolls each sealed day in scope up after the hours are compacted (docs/spec/storage.md, "Rollup: small hours into
     * day files"), with {@code options}' sizes; the compactor must be built on a store.
     */
    public void rollUpWith(CompactionOptions options) {
        this.rollup = options;
    }

    public void compactAuditWith(AuditCompactor compactor) {
        this.auditCompactor = compactor;
    }

    /** The retention this runner applies. */
    public Retention retention() {
        return retention;
    }

    /**
     * Runs one sweep.
     *
     * @param onResult called for each partition result as it completes (for progress and JSON lines)
     */
    public SweepReport sweep(PartitionFilter filter, Consumer<PartitionResult> onResult) {
        long started = System.nanoTime();
        Instant now = clock.instant();
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        int gcDeleted = 0;
        long gcBytes = 0;
        Map<PartitionKey, List<String>> gcErrors = new TreeMap<>();
        try {
            GcReport report = gc.run(filter);
            gcDeleted = report.deletedKeys().size();
            gcBytes = report.bytesReclaimed();
            report.partitions().stream().filter(r -> !r.errors().isEmpty())
                    .forEach(r -> gcErrors.put(r.partition(), r.errors()));
        } catch (Throwable t) {
            errors.add("gc: " + Containment.describe(Containment.contain(t)));
        }
        if (debris != null) {
            try {
                DebrisReport d = debris.collect(filter);
                gcDeleted += d.count();
                gcBytes += d.bytes();
            } catch (Throwable t) {
                // The collector logs and skips what it cannot read; anything else is the sweep's error line.
                errors.add("debris collection: " + Containment.describe(Containment.contain(t)));
            }
        }

        List<Candidate> candidates = new ArrayList<>();
        List<PartitionSnapshot> expired = new ArrayList<>();
        Map<String, Long> found = new TreeMap<>();
        List<PartitionKey> partitions;
        List<PartitionKey> listed = new ArrayList<>();
        List<DayPartition> dayPartitions = new ArrayList<>(); // days holding a rollup/ directory
        try {
            layout.forEachPartition(filter, listed::add, dayPartitions::add);
            partitions = listed.stream().filter(this::mayPlan).toList();
        } catch (Throwable t) {
            errors.add("listing partitions: " + Containment.describe(Containment.contain(t)));
            listed = List.of();
            partitions = List.of();
        }
        for (DayPartition day : dayPartitions) {
            if (shard.owns(day.label())) {
                repairDayAudit(day); // a day commit's lost event, whatever commit made it (rollup, expiry, deletion)
            }
        }
        List<PartitionResult> results = Collections.synchronizedList(new ArrayList<>());
        for (PartitionKey p : partitions) {
            if (!shard.owns(p)) {
                sharedCandidate(p, now).ifPresent(c -> {
                    candidates.add(c);
                    found.merge(p.tenantId(), 1L, Long::sum); // its commit, if this process makes it, counts here
                });
                continue;
            }
            try {
                PartitionSnapshot s = reader.hourSnapshot(p);
                if (s.isCovered()) {
                    // Its rows are in its day partition: never planned by the hour policy; the rollup folds its late
                    // files in. Past its retention it is expired by its own commit, which voids the cover.
                    if (retention.isExpired(p, now)) {
                        expired.add(s);
                    }
                    continue;
                }
                repairAudit(s);
                if (retention.isExpired(p, now)) {
                    // The whole hour is past the tenant's retention: expired (again, if late files landed since),
                    // never compacted, since compacting rows about to be expired only costs a rewrite.
                    if (!s.live().isEmpty()) {
                        expired.add(s);
                    }
                    continue;
                }
                PlanDecision d = policy.decide(p, s.generation(), s.live(), mainFiles(s), now);
                if (d.isCandidate()) {
                    candidates.add(new Candidate(s, d.plan().orElseThrow()));
                    found.merge(p.tenantId(), 1L, Long::sum);
                }
            } catch (Throwable t) {
                String msg = Containment.describe(Containment.contain(t));
                LOG.debug("planning {} failed", p, t);
                PartitionResult r = PartitionResult.error(p, -1, p + ": " + msg, 0);
                results.add(r);
                onResult.accept(r);
                gcErrors.remove(p); // GC skipped it for the same reason: one error line per partition, not two
            }
        }
        gcErrors.values().forEach(errors::addAll);
        // Oldest first: the hours that have waited longest; ties by tenant for a deterministic order.
        candidates.sort(Comparator.comparing((Candidate c) -> c.plan.partition().hourStart())
                .thenComparing(c -> c.plan.partition().tenantId()));

        for (PartitionSnapshot s : expired) {
            if (stopping.get()) {
                break; // SIGTERM: start nothing new
            }
            PartitionResult r = contained(s.partition(), s.generation(),
                    () -> expirer.expire(s, retention.forTenant(s.partition().tenantId()).orElseThrow()));
            if (r.result() != PartitionResult.Result.ERROR) {
                LOG.info("{}: expired ({} files, {} rows)", s.partition(), r.filesIn(), r.rows());
            }
            results.add(r);
            onResult.accept(r);
        }

        if (!retention.isNone()) {
            expireDays(listed, now, results, onResult);
        }

        ExecutorService pool = Executors.newFixedThreadPool(concurrency, r -> {
            Thread t = new Thread(r, "ourios-compaction");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Candidate c : candidates) {
                futures.add(pool.submit(() -> {
                    if (stopping.get()) {
                        return; // SIGTERM: start nothing new
                    }
                    PartitionResult r = contained(c.plan.partition(), c.plan.baseGeneration(),
                            () -> compactor.compact(c.snapshot, c.plan));
                    if (r.result() == PartitionResult.Result.ERROR) {
                        // DEBUG: the result carries the error and every caller reports it (CLI line, serve event);
                        // a WARN here would print each error twice on the CLI's stderr.
                        LOG.debug("{}", r.error());
                    } else {
                        LOG.info("{}: {} ({} files, {} rows)", c.plan.partition(), r.result().label(), r.filesIn(),
                                r.rows());
                    }
                    results.add(r);
                    onResult.accept(r);
                }));
            }
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    // The task reports its partition's failures itself; what reaches here failed around that
                    // (the result callback), and an error that ends the JVM goes on ending it.
                    Containment.contain(e.getCause());
                    errors.add("BUG: compaction task failed: " + e);
                } catch (Exception e) {
                    errors.add("BUG: compaction task failed: " + e);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        if (rollup != null) {
            rollUp(listed, now, results, onResult);
        }
        if (auditCompactor != null && !stopping.get()) {
            try {
                for (AuditCompactor.DayResult d : auditCompactor.sweep(filter.tenants(), wallClock.instant())) {
                    if (d.error() != null) {
                        errors.add(d.error());
                    }
                }
            } catch (Throwable t) {
                // Each day's failure is its own result; this catches what fails around the days.
                errors.add("audit compaction: " + Containment.describe(Containment.contain(t)));
            }
        }
        Map<String, Long> backlog = new TreeMap<>(found);
        synchronized (results) {
            for (PartitionResult r : results) {
                if (r.result() == PartitionResult.Result.COMMITTED && r.action() == CommitKind.COMPACT) {
                    backlog.merge(r.partition().tenantId(), -1L, Long::sum);
                }
            }
        }
        List<PartitionResult> ordered = new ArrayList<>(results);
        ordered.sort(Comparator.comparing(PartitionResult::partition));
        SweepReport report = new SweepReport(ordered, gcDeleted, gcBytes, errors,
                (System.nanoTime() - started) / 1e9);
        metrics.recordSweep(report, backlog);
        return report;
    }

    /**
     * The rollup step of a sweep: every sealed day of the listed hours that this runner's shard owns (by the day's
     * first hour) and none of whose hours is expired, one at a time, tenant then day.
     */
    private void rollUp(List<PartitionKey> listed, Instant now, List<PartitionResult> results,
            Consumer<PartitionResult> onResult) {
        eachDay(listed, day -> !now.isBefore(day.label().hourStart().plus(java.time.Duration.ofDays(1))
                .plus(rollup.grace())) && !retention.isExpired(day.label(), now),
                day -> compactor.rollUp(day, reader, rollup,
                        s -> !policy.decide(s.partition(), s.generation(), s.live(), mainFiles(s), now).isCandidate()),
                results, onResult);
    }

    /**
     * Expires every day partition of the listed hours whose every hour is past its tenant's retention and that holds
     * files (docs/spec/storage.md 4.12, 4.15), after the hours' own expiries; by the shard of the day's first hour.
     */
    private void expireDays(List<PartitionKey> listed, Instant now, List<PartitionResult> results,
            Consumer<PartitionResult> onResult) {
        eachDay(listed, day -> retention.isExpired(day.hour(23), now),
                day -> expirer.expireDay(day, reader, retention.forTenant(day.tenantId()).orElseThrow()),
                results, onResult);
    }

    /**
     * Runs {@code work} on every day of the listed hours that {@code selects} and this runner's shard owns (by the
     * day's first hour), one at a time, tenant then day, each contained; a day with nothing to do is not reported.
     */
    private void eachDay(List<PartitionKey> listed, java.util.function.Predicate<DayPartition> selects,
            java.util.function.Function<DayPartition, PartitionResult> work, List<PartitionResult> results,
            Consumer<PartitionResult> onResult) {
        java.util.SortedSet<DayPartition> days = new java.util.TreeSet<>(Comparator.comparing(DayPartition::tenantId)
                .thenComparing(DayPartition::date));
        for (PartitionKey p : listed) {
            DayPartition day = DayPartition.of(p);
            if (shard.owns(day.label()) && selects.test(day)) {
                days.add(day);
            }
        }
        for (DayPartition day : days) {
            if (stopping.get()) {
                return; // SIGTERM: start nothing new
            }
            PartitionResult r = contained(day.label(), -1, () -> work.apply(day)).onDay();
            if (r.result() == PartitionResult.Result.NOOP && PartitionCompactor.NOTHING_TO_ROLL_UP.equals(r.reason())) {
                continue; // a day at rest is not news, as an hour that is no candidate is not
            }
            if (r.result() == PartitionResult.Result.ERROR) {
                LOG.debug("{}", r.error());
            } else {
                LOG.info("{}: {} {} ({} files, {} rows)", day, r.action().label(), r.result().label(), r.filesIn(),
                        r.rows());
            }
            results.add(r);
            onResult.accept(r);
        }
    }

    /**
     * The audit repair of a day partition (STORAGE.md §4.15, §4.2 step 6): every present manifest's complete commit
     * record whose event is not recorded is emitted, the event carrying the day's first hour as its partition. Best
     * effort: a failure is logged and the next sweep tries again (GC holds the manifest meanwhile).
     */
    private void repairDayAudit(DayPartition day) {
        try {
            PartitionSnapshot s = reader.daySnapshot(day);
            List<ObjectInfo> manifests = new ArrayList<>(s.supersededManifests());
            s.currentManifest().ifPresent(manifests::add);
            for (ObjectInfo o : manifests) {
                Manifest m = reader.readManifest(o.key());
                Optional<CommitRecord> c = m.commitRecord().flatMap(RecordedCommit::complete);
                if (c.isPresent() && audit.emitOnce(AuditEvent.ofDay(day, m.generation(), c.get()), reader)) {
                    LOG.info("{}: re-emitted the audit event of generation {}", day, m.generation());
                }
            }
        } catch (Throwable t) {
            LOG.warn("{}: audit re-emission failed: {}", day, Containment.describe(Containment.contain(t)));
        }
    }

    /**
     * Re-emits the audit event of every commit of the partition whose event is not recorded, however long ago it
     * committed and however many commits followed (STORAGE.md §4.2 step 6): it walks the manifests still present,
     * newest first, above the generation this process last found wholly audited. GC keeps a superseded manifest until
     * its event is recorded, so every unaudited commit's record is among them. Emission is idempotent
     * ({@link AuditLog#emitOnce}). Only a complete commit record can be one of ours; a record missing fields was
     * written by another tool or by hand, and there is no commit of ours to audit.
     */
    private void repairAudit(PartitionSnapshot s) {
        long done = audited.getOrDefault(s.partition(), 0L);
        if (s.manifest().isEmpty() || s.generation() <= done) {
            return;
        }
        List<Long> generations = new ArrayList<>();
        generations.add(s.generation());
        s.supersededManifests().stream().filter(o -> !ManifestKeys.isReference(o.key()))
                .map(o -> ManifestKeys.generationOfName(o.name())).filter(g -> g > done).forEach(generations::add);
        generations.sort(Comparator.reverseOrder());
        boolean all = true;
        for (long g : generations) {
            try {
                Manifest m = g == s.generation() ? s.manifest().get() : reader.readManifest(s.partition(), g);
                Optional<CommitRecord> c = m.commitRecord().flatMap(RecordedCommit::complete);
                if (c.isPresent() && audit.emitOnce(AuditEvent.of(s.partition(), g, c.get()), reader)) {
                    LOG.info("{}: re-emitted the audit event of generation {}", s.partition(), g);
                }
            } catch (ManifestException e) {
                // An invalid superseded manifest holds no commit record of ours: nothing to audit from it.
                LOG.debug("{}: manifest of generation {} is invalid: {}", s.partition(), g, e.getMessage());
            } catch (Throwable t) {
                all = false;
                LOG.warn("{}: audit re-emission of generation {} failed: {}", s.partition(), g,
                        Containment.describe(Containment.contain(t)));
            }
        }
        if (all) {
            if (audited.size() >= AUDITED_MEMO_LIMIT) {
                audited.clear();
            }
            audited.put(s.partition(), s.generation());
        }
    }

    /**
     * {@code work}'s result, or the partition's error result when it throws: the compactor and expirer report their
     * own failures, so this only meets what fails around them (building the work), and keeps it the partition's.
     */
    private static PartitionResult contained(PartitionKey p, long generation, Supplier<PartitionResult> work) {
        try {
            return work.get();
        } catch (Throwable t) {
            Containment.contain(t);
            LOG.debug("{} failed", p, t);
            String msg = Containment.describeOrName(t);
            return PartitionResult.error(p, generation, msg.contains(p.hourPath()) ? msg : p + ": " + msg, 0);
        }
    }

    private record Candidate(PartitionSnapshot snapshot, CompactionPlan plan) {
    }

    /**
     * Whether this runner plans {@code p}: its shard's partitions, and when sharded every partition, since another
     * shard's large hour may give this process a group of its shares.
     */
    private boolean mayPlan(PartitionKey p) {
        return shard.owns(p) || shard.count() > 1;
    }

    /**
     * Another shard's hour as this process's candidate: when its compaction is cut into shares and one group is this
     * process's to write (docs/spec/storage.md, "Sharing one rewrite between compactor processes"). Everything else
     * about the hour (its audit repair, expiry, errors) is its own shard's; a failure to plan it is logged only.
     */
    private Optional<Candidate> sharedCandidate(PartitionKey p, Instant now) {
        try {
            if (retention.isExpired(p, now)) {
                return Optional.empty();
            }
            PartitionSnapshot s = reader.hourSnapshot(p);
            if (s.isCovered()) {
                return Optional.empty();
            }
            Optional<CompactionPlan> plan = policy.decide(p, s.generation(), s.live(), mainFiles(s), now).plan();
            if (plan.isEmpty() || plan.get().day().isPresent()) {
                return Optional.empty();
            }
            ShareProcesses processes = shard.processes();
            int groups = processes.groups(ShareSampler.shareCount(plan.get().bytesIn(), plan.get().maxFileBytes()));
            return groups > 1 && processes.groupOf(p, groups) >= 0 ? Optional.of(new Candidate(s, plan.get()))
                    : Optional.empty();
        } catch (Throwable t) {
            LOG.debug("planning {} for a shared rewrite failed; its own shard reports it", p, t);
            Containment.contain(t);
            return Optional.empty();
        }
    }

    /** The band the partition's manifest names as its main files; empty when it names none. */
    private static List<String> mainFiles(PartitionSnapshot s) {
        return s.manifest().map(m -> m.main()).orElse(List.of());
    }
}
