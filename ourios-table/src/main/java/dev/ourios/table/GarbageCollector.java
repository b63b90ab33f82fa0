package dev.ourios.table;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.IncompleteUpload;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes what no reader can need any more, over every partition (not only compaction candidates), after the grace
 * period (STORAGE.md §4). What may go is decided by {@link GcPlanner}; this class walks, deletes and reports. A
 * partition whose manifest is invalid is skipped whole: with an unreadable manifest we cannot tell retired from
 * live. Idempotent: deleting an object already gone succeeds, and the next run's listing no longer holds it.
 */
public final class GarbageCollector {
    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);

    private final ObjectStore store;
    private final TableLayout layout;
    private final TableReader reader;
    private final GcOptions options;
    private final Clock clock;
    private final FileRetention retention;
    private final CommitAudit commitAudit;

    public GarbageCollector(ObjectStore store, TableLayout layout, TableReader reader, GcOptions options, Clock clock) {
        this(store, layout, reader, options, clock, FileRetention.NONE);
    }

    /** As above, keeping also every key {@code retention} retains (see {@link FileRetention}). */
    public GarbageCollector(ObjectStore store, TableLayout layout, TableReader reader, GcOptions options, Clock clock,
            FileRetention retention) {
        this(store, layout, reader, options, clock, retention, CommitAudit.NONE);
    }

    /**
     * As above, keeping also every superseded manifest whose commit's audit event {@code commitAudit} does not find
     * recorded (STORAGE.md §5, audit hold).
     */
    public GarbageCollector(ObjectStore store, TableLayout layout, TableReader reader, GcOptions options, Clock clock,
            FileRetention retention, CommitAudit commitAudit) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.layout = Objects.requireNonNull(layout, "layout is null");
        this.reader = Objects.requireNonNull(reader, "reader is null");
        this.options = Objects.requireNonNull(options, "options is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.retention = Objects.requireNonNull(retention, "retention is null");
        this.commitAudit = Objects.requireNonNull(commitAudit, "commitAudit is null");
    }

    /** Collects every partition the filter selects. */
    public GcReport run(PartitionFilter filter) throws IOException {
        // Asked first and once: a retention that cannot answer fails the run before anything is deleted.
        Predicate<String> retained = retention.retained(options.grace(), options.dryRun());
        List<PartitionGcResult> results = new ArrayList<>();
        layout.forEachPartition(filter,
                p -> results.add(collect(p, p.dataPrefix(), () -> reader.hourSnapshot(p), retained, commitAudit)),
                day -> results.add(collectDay(day, retained)));
        GcReport report = new GcReport(options.dryRun(), results);
        LOG.info("gc{}: {} partition(s), {} object(s), {} bytes, {} incomplete upload(s), {} error(s)",
                options.dryRun() ? " (dry run)" : "", results.size(), report.deletedKeys().size(),
                report.bytesReclaimed(), report.abortedUploads().size(), report.errors().size());
        return report;
    }

    /** Collects one partition (nothing retained beyond the manifests); problems are recorded, never thrown. */
    public PartitionGcResult collect(PartitionKey partition) {
        return collect(partition, partition.dataPrefix(), () -> reader.hourSnapshot(partition), key -> false,
                commitAudit);
    }

    /** Collects one day partition (STORAGE.md §4.15) by the same rules; problems are recorded, never thrown. */
    public PartitionGcResult collect(DayPartition day) {
        return collectDay(day, key -> false);
    }

    /**
     * A day partition (STORAGE.md §4.15), with the audit hold of its superseded manifests: each day commit has an
     * event of its own, asked of the {@link CommitAudit} with the day's first hour as its partition.
     */
    private PartitionGcResult collectDay(DayPartition day, Predicate<String> retained) {
        CommitAudit dayAudit = commitAudit == CommitAudit.NONE ? CommitAudit.NONE
                : (label, manifest) -> commitAudit.recordedDay(day, manifest);
        return collect(day.label(), day.prefix(), () -> reader.daySnapshot(day), retained, dayAudit);
    }

    /**
     * Collects the directory {@code prefix} that keeps files and manifests as a partition does (an audit day), by the
     * same rules; {@code partition} names it in the result.
     */
    public PartitionGcResult collect(PartitionKey partition, String prefix) {
        // A day's manifests hold no event of their own to wait for: an audit compaction's event is a row of its output.
        return collect(partition, prefix, () -> reader.snapshot(partition, prefix), key -> false, CommitAudit.NONE);
    }

    /** How one directory's snapshot is taken: an hour's with its day's covers, a day partition's, an audit day's. */
    @FunctionalInterface
    private interface SnapshotSource {
        PartitionSnapshot take() throws IOException;
    }

    private PartitionGcResult collect(PartitionKey partition, String prefix, SnapshotSource source,
            Predicate<String> retained, CommitAudit audit) {
        PartitionSnapshot snapshot;
        try {
            snapshot = source.take();
        } catch (ManifestException e) {
            // DEBUG: the skip is in the result, which every caller prints once (one line per bad partition).
            LOG.debug("gc skipped {}: {}", partition, e.getMessage());
            return new PartitionGcResult(partition, List.of(), 0, List.of("skipped: " + e.getMessage()));
        } catch (IOException e) {
            LOG.error("gc skipped {}: could not list or read it", partition, e);
            return new PartitionGcResult(partition, List.of(), 0, List.of("skipped: " + e.getMessage()));
        }
        Instant now = clock.instant();
        List<String> deleted = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        long bytes = 0;
        for (GcPlanner.Candidate c : GcPlanner.plan(snapshot, now, options.grace())) {
            String key = c.object().key();
            if (retained.test(key)) {
                LOG.debug("gc keeps {} ({}): still referenced outside the manifests", key, c.reason());
                continue;
            }
            if (c.reason() == GcPlanner.Reason.SUPERSEDED_MANIFEST && awaitsAudit(partition, c.object(), audit)) {
                continue;
            }
            if (!options.dryRun()) {
                try {
                    store.delete(key);
                } catch (IOException e) {
                    errors.add("could not delete " + store.describe(key) + ": " + e.getMessage());
                    LOG.warn("gc could not delete {}", store.describe(key), e);
                    continue;
                }
            }
            LOG.debug("gc {} {} ({})", options.dryRun() ? "would delete" : "deleted", key, c.reason());
            deleted.add(key);
            bytes += c.object().size();
        }
        List<String> aborted = abortStaleUploads(prefix, now, errors);
        return new PartitionGcResult(partition, deleted, bytes, errors, aborted);
    }

    /**
     * True if the superseded manifest {@code o} must stay because its commit's audit event is not recorded yet (or
     * that cannot be known now). The reference {@code manifest.json} and an invalid manifest carry no commit of ours.
     */
    private boolean awaitsAudit(PartitionKey partition, ObjectInfo o, CommitAudit audit) {
        if (audit == CommitAudit.NONE || ManifestKeys.isReference(o.key())) {
            return false;
        }
        try {
            Manifest m = reader.readManifest(o.key()); // an hour's or a day partition's
            if (audit.recorded(partition, m)) {
                return false;
            }
            LOG.debug("gc keeps {}: its commit's audit event is not recorded yet", o.key());
            return true;
        } catch (ManifestException e) {
            return false;
        } catch (IOException | RuntimeException e) {
            LOG.warn("gc keeps {}: could not tell whether its commit was audited: {}", store.describe(o.key()),
                    e.toString());
            return true;
        }
    }

    /**
     * Aborts the partition's incomplete uploads begun more than the grace ago: a compactor killed mid-upload
     * leaves one (its parts are stored and billed until aborted; docs/operations.md). The grace protects an upload
     * still being written: a compaction's upload lives for minutes, and aborting one that is somehow still running
     * only fails that compaction, which the next sweep redoes.
     */
    private List<String> abortStaleUploads(String prefix, Instant now, List<String> errors) {
        List<IncompleteUpload> uploads;
        try {
            uploads = store.incompleteUploads(prefix);
        } catch (IOException e) {
            errors.add("could not list incomplete uploads of " + store.describe(prefix) + ": "
                    + e.getMessage());
            LOG.warn("gc could not list incomplete uploads of {}", store.describe(prefix), e);
            return List.of();
        }
        Instant cutoff = now.minus(options.grace());
        List<String> aborted = new ArrayList<>();
        for (IncompleteUpload u : uploads) {
            if (!u.initiated().isBefore(cutoff)) {
                continue;
            }
            String what = u.key() + " (upload " + u.uploadId() + ")";
            if (!options.dryRun()) {
                try {
                    store.abortUpload(u);
                } catch (IOException e) {
                    errors.add("could not abort incomplete upload " + u.uploadId() + " of " + store.describe(u.key())
                            + ": " + e.getMessage());
                    LOG.warn("gc could not abort incomplete upload {} of {}", u.uploadId(), store.describe(u.key()),
                            e);
                    continue;
                }
            }
            LOG.debug("gc {} incomplete upload {}", options.dryRun() ? "would abort" : "aborted", what);
            aborted.add(what);
        }
        return aborted;
    }
}
