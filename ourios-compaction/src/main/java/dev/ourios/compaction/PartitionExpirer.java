package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.core.Retention;
import dev.ourios.parquet.footer.Footers;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.CommitResult;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.NextManifest;
import dev.ourios.table.PartitionSnapshot;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expires one partition (the mechanism; {@link Retention} decides which): a commit of generation N+1 with
 * {@code files: []} that retires every live file, then an {@code expire} audit event. Nothing is deleted here: the
 * retired files go the way of every retired file, collected by GC after the grace, so a reader that planned on
 * generation N still finds them and a query sees the partition whole or empty, never half. Rows are counted from
 * the live files' footers (no row is read) for the commit record and the audit event.
 */
public final class PartitionExpirer {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionExpirer.class);

    private final ObjectStore store;
    private final ManifestCommitter committer;
    private final AuditLog audit;
    private final Clock clock;

    public PartitionExpirer(ObjectStore store, ManifestCommitter committer, AuditLog audit, Clock clock) {
        this.store = store;
        this.committer = committer;
        this.audit = audit;
        this.clock = clock;
    }

    /**
     * Retires every live file of {@code snapshot} in one commit on top of its generation.
     *
     * @param retention the tenant's retention, recorded as the reason
     */
    public PartitionResult expire(PartitionSnapshot snapshot, Duration retention) {
        long started = System.nanoTime();
        List<ObjectInfo> live = snapshot.live();
        try {
            long rows = 0;
            for (ObjectInfo f : live) {
                rows += footerRows(f);
            }
            long bytes = snapshot.liveBytes();
            CommitRecord record = CommitRecord.expiry(clock.instant(), live.stream().map(ObjectInfo::name).toList(),
                    rows, bytes, "retention " + Retention.format(retention));
            Manifest next = NextManifest.from(snapshot, record);
            CommitResult cr = committer.commit(snapshot.partition(), snapshot.generation(), next);
            double secs = (System.nanoTime() - started) / 1e9;
            return switch (cr.status()) {
                case COMMITTED -> {
                    try {
                        audit.emit(AuditEvent.of(snapshot.partition(), cr.generation(), record));
                    } catch (Exception e) {
                        LOG.warn("{}: audit event for generation {} not written ({}); a later sweep re-emits it",
                                snapshot.partition(), cr.generation(), e.getMessage());
                    }
                    yield new PartitionResult(snapshot.partition(), PartitionResult.Result.COMMITTED, live.size(),
                            rows, bytes, 0, cr.generation(), null, record.inputs(), null, record.reason(), secs,
                            null, CommitKind.EXPIRE);
                }
                case LOST -> new PartitionResult(snapshot.partition(), PartitionResult.Result.NOOP, live.size(), 0,
                        bytes, 0, snapshot.generation(), null, record.inputs(), null,
                        "lost the commit race: " + cr.detail() + "; the next sweep expires what is live then", secs,
                        null, CommitKind.EXPIRE);
                case REJECTED, UNKNOWN -> PartitionResult.error(snapshot.partition(), snapshot.generation(),
                        snapshot.partition() + ": expiry commit " + cr.status().name().toLowerCase(Locale.ROOT)
                                + ": " + cr.detail(), secs);
            };
        } catch (Exception e) {
            String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return PartitionResult.error(snapshot.partition(), snapshot.generation(),
                    snapshot.partition() + ": expiry: " + msg, (System.nanoTime() - started) / 1e9);
        }
    }

    private long footerRows(ObjectInfo f) throws IOException {
        try (RandomAccessInput in = store.openRandomAccess(f.key())) {
            return Footers.readRaw(in, store.describe(f.key())).getNum_rows();
        }
    }
}
