package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.core.Retention;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.PartitionSnapshot;
import java.time.Clock;
import java.time.Duration;

/**
 * Expires one partition (the mechanism; {@link Retention} decides which): a commit of generation N+1 with
 * {@code files: []} that retires every live file, then an {@code expire} audit event. Nothing is deleted here: the
 * retired files go the way of every retired file, collected by GC after the grace, so a reader that planned on
 * generation N still finds them and a query sees the partition whole or empty, never half. The expiry is an
 * {@link ExpiryRewrite} run through the {@link RewriteProtocol}.
 */
public final class PartitionExpirer {
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
        return new RewriteProtocol(committer, audit).run(new ExpiryRewrite(store, snapshot, retention, clock));
    }

    /**
     * Retires every file of the day partition {@code day}, keeping its covers (docs/spec/storage.md 4.15): for a day
     * whose every hour is past {@code retention}. A day without live files is left as it is (a noop whose reason is
     * {@link PartitionCompactor#NOTHING_TO_ROLL_UP}).
     */
    public PartitionResult expireDay(dev.ourios.table.DayPartition day, dev.ourios.table.TableReader reader,
            Duration retention) {
        return new RewriteProtocol(committer, audit).run(new DayExpiryRewrite(day, reader, store, retention, clock));
    }
}
