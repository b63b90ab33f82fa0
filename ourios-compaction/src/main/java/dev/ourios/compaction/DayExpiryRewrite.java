package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.core.Retention;
import dev.ourios.parquet.footer.Footers;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.Cover;
import dev.ourios.table.DayPartition;
import dev.ourios.table.Manifest;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.Retired;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The expiry of a day partition whose every hour is past the tenant's retention (docs/spec/storage.md 4.12, 4.15), as
 * a {@link RewritePlan}: no output; the day's next generation retires every day file ({@code files: []}) and keeps its
 * covers, so an hour still validly covered resolves to no rows from the day rather than to its own, possibly
 * collected, files. Rows are counted from the day files' footers.
 */
final class DayExpiryRewrite implements RewritePlan<PartitionResult> {
    private final DayPartition day;
    private final TableReader reader;
    private final ObjectStore store;
    private final Duration retention;
    private final Clock clock;

    DayExpiryRewrite(DayPartition day, TableReader reader, ObjectStore store, Duration retention, Clock clock) {
        this.day = day;
        this.reader = reader;
        this.store = store;
        this.retention = retention;
        this.clock = clock;
    }

    @Override
    public PlannedRewrite plan() throws IOException {
        return PlannedRewrite.inDirectory(reader.daySnapshot(day), day.prefix());
    }

    @Override
    public StagedRewrite rewrite(PlannedRewrite planned) throws IOException {
        List<ObjectInfo> live = planned.snapshot().live();
        if (live.isEmpty()) {
            return StagedRewrite.unchanged(0, 0);
        }
        long rows = 0;
        for (ObjectInfo f : live) {
            try (RandomAccessInput in = store.openRandomAccess(f.key())) {
                rows += Footers.readRaw(in, store.describe(f.key())).getNum_rows();
            }
        }
        CommitRecord record = CommitRecord.expiry(clock.instant(), live.stream().map(ObjectInfo::name).sorted()
                .toList(), rows, planned.snapshot().liveBytes(), "retention " + Retention.format(retention));
        return StagedRewrite.toCommit(record, live.size(), rows, null, null, false);
    }

    @Override
    public Optional<Manifest> nextManifest(PlannedRewrite planned, CommitRecord record) {
        PartitionSnapshot s = planned.snapshot();
        List<Retired> retired = new ArrayList<>();
        s.manifest().ifPresent(m -> m.retired().stream().filter(r -> s.isPresent(r.file())).forEach(retired::add));
        s.live().forEach(o -> retired.add(new Retired(o.name(), record.at())));
        retired.sort(Comparator.comparing(Retired::file));
        // The counts per service no longer describe the day files, which this commit retires: a count must not take
        // an hour's rows from them (docs/spec/storage.md 4.15, "Service counts").
        List<Cover> covers = s.manifest().map(Manifest::covers).orElse(List.<Cover>of()).stream()
                .map(Cover::withoutServices).toList();
        return Optional.of(Manifest.ofDay(planned.generation() + 1, List.of(), retired, record, List.of(), covers));
    }

    @Override
    public Optional<AuditEvent> auditEvent(PlannedRewrite planned, CommitRecord record, long generation) {
        return Optional.of(AuditEvent.ofDay(day, generation, record));
    }

    @Override
    public PartitionResult report(RewriteOutcome outcome) {
        if (outcome instanceof RewriteOutcome.Committed c) {
            CommitRecord r = c.record();
            return new PartitionResult(day.label(), PartitionResult.Result.COMMITTED, r.inputs().size(),
                    r.rowsRemoved(), r.bytesIn(), 0, c.generation(), null, r.inputs(), null,
                    "the day partition " + day.prefix() + ", " + r.reason(), c.seconds(),
                    null, CommitKind.EXPIRE);
        }
        if (outcome instanceof RewriteOutcome.Unchanged u) {
            return PartitionResult.noop(day.label(), u.planned().generation(), PartitionCompactor.NOTHING_TO_ROLL_UP);
        }
        if (outcome instanceof RewriteOutcome.Lost l) {
            return PartitionResult.noop(day.label(), l.planned().generation(), day + ": lost the commit race ("
                    + l.detail() + "); the next sweep expires what is live then");
        }
        if (outcome instanceof RewriteOutcome.Refused r) {
            return PartitionResult.error(day.label(), r.planned().generation(), day + ": expiry commit "
                    + r.statusLabel() + ": " + r.detail(), r.seconds());
        }
        if (outcome instanceof RewriteOutcome.Failed f) {
            return PartitionResult.error(day.label(), f.generation(-1), day + ": expiry: "
                    + Containment.describeOrName(f.error()), f.seconds());
        }
        return PartitionResult.error(day.label(), -1, day + ": expiry staged no commit", outcome.seconds());
    }
}
