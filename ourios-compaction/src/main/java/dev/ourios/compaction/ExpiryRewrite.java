package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.core.FileNames;
import dev.ourios.core.Retention;
import dev.ourios.parquet.footer.Footers;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.Retired;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A retention expiry as a {@link RewritePlan}: no output; the commit retires every live file of the snapshot
 * ({@code files: []}). Its rows are counted from the live files' footers (no row is read) for the commit record and
 * the audit event. A lost race is not retried: the next sweep expires what is live then.
 */
final class ExpiryRewrite implements RewritePlan<PartitionResult> {
    private final ObjectStore store;
    private final PartitionSnapshot snapshot;
    private final Duration retention;
    private final Clock clock;

    ExpiryRewrite(ObjectStore store, PartitionSnapshot snapshot, Duration retention, Clock clock) {
        this.store = store;
        this.snapshot = snapshot;
        this.retention = retention;
        this.clock = clock;
    }

    @Override
    public PlannedRewrite plan() {
        return PlannedRewrite.of(snapshot);
    }

    @Override
    public StagedRewrite rewrite(PlannedRewrite planned) throws IOException {
        List<ObjectInfo> live = snapshot.live();
        // A validly covered hour (storage.md 4.15): its rows in the day files, as its cover counts them, go too.
        long rows = snapshot.cover().map(c -> c.cover().rows()).orElse(0L);
        for (ObjectInfo f : live) {
            rows += footerRows(f);
        }
        CommitRecord record = CommitRecord.expiry(clock.instant(), live.stream().map(ObjectInfo::name).toList(),
                rows, snapshot.liveBytes(), "retention " + Retention.format(retention));
        return StagedRewrite.toCommit(record, live.size(), rows, null, null, false);
    }

    /**
     * A validly covered hour's expiry (storage.md 4.15) builds on the hour's manifest at the cover's generation, which
     * the covered snapshot did not read: {@code files: []}, and retired what that manifest named or retired and what
     * the cover accounts for (ingest-file names always, other names while present), with the late files. Its commit
     * voids the cover, so the hour's rows in the day files are dead from then on.
     */
    @Override
    public Optional<Manifest> nextManifest(PlannedRewrite planned, CommitRecord record) throws IOException {
        if (!snapshot.isCovered()) {
            return RewritePlan.super.nextManifest(planned, record);
        }
        Map<String, Retired> retired = new TreeMap<>();
        java.util.function.Predicate<String> keep = n -> FileNames.isIngestFile(n) || snapshot.isPresent(n);
        if (snapshot.currentManifest().isPresent()) {
            String key = snapshot.currentManifest().get().key();
            Manifest g = new ManifestCodec().decode(key, store.readAllBytes(key));
            g.retired().stream().filter(r -> keep.test(r.file())).forEach(r -> retired.put(r.file(), r));
            g.files().stream().filter(keep).forEach(f -> retired.putIfAbsent(f, new Retired(f, record.at())));
        }
        snapshot.cover().get().cover().names().stream().filter(keep)
                .forEach(n -> retired.putIfAbsent(n, new Retired(n, record.at())));
        snapshot.live().forEach(o -> retired.put(o.name(), new Retired(o.name(), record.at())));
        return Optional.of(Manifest.of(planned.generation() + 1, List.of(), List.copyOf(retired.values()), record));
    }

    @Override
    public Optional<AuditEvent> auditEvent(PlannedRewrite planned, CommitRecord record, long generation) {
        return Optional.of(AuditEvent.of(snapshot.partition(), generation, record));
    }

    @Override
    public PartitionResult report(RewriteOutcome outcome) {
        int files = snapshot.live().size();
        if (outcome instanceof RewriteOutcome.Committed c) {
            CommitRecord r = c.record();
            return new PartitionResult(snapshot.partition(), PartitionResult.Result.COMMITTED, files,
                    r.rowsRemoved(), r.bytesIn(), 0, c.generation(), null, r.inputs(), null, r.reason(), c.seconds(),
                    null, CommitKind.EXPIRE);
        }
        if (outcome instanceof RewriteOutcome.Lost l) {
            CommitRecord r = l.staged().commitRecord();
            return new PartitionResult(snapshot.partition(), PartitionResult.Result.NOOP, files, 0, r.bytesIn(), 0,
                    snapshot.generation(), null, r.inputs(), null, "lost the commit race: " + l.detail()
                            + "; the next sweep expires what is live then", l.seconds(), null, CommitKind.EXPIRE);
        }
        if (outcome instanceof RewriteOutcome.Refused r) {
            return PartitionResult.error(snapshot.partition(), snapshot.generation(), snapshot.partition()
                    + ": expiry commit " + r.statusLabel() + ": " + r.detail(), r.seconds());
        }
        if (outcome instanceof RewriteOutcome.Failed f) {
            return failed(Containment.describeOrName(f.error()), f.seconds());
        }
        // An expiry stages a commit with no rows to verify: neither unchanged nor unverified can happen.
        return failed("the expiry staged no commit", outcome.seconds());
    }

    private PartitionResult failed(String msg, double seconds) {
        return PartitionResult.error(snapshot.partition(), snapshot.generation(),
                snapshot.partition() + ": expiry: " + msg, seconds);
    }

    private long footerRows(ObjectInfo f) throws IOException {
        try (RandomAccessInput in = store.openRandomAccess(f.key())) {
            return Footers.readRaw(in, store.describe(f.key())).getNum_rows();
        }
    }
}
