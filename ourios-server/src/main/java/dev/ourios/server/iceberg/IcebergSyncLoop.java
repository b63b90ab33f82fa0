package dev.ourios.server.iceberg;

import dev.ourios.server.events.EventLog;
import dev.ourios.iceberg.IcebergSync;
import dev.ourios.iceberg.PendingPartitions;
import dev.ourios.iceberg.SyncResult;
import dev.ourios.iceberg.SyncScope;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code iceberg.enabled}: one thread that keeps the Iceberg view in step with every live-set change this process
 * makes. Compactions, expiries, deletions over the API and ingest flushes report their partitions to a
 * {@link PendingPartitions}; this thread syncs those partitions (a partial sync, whose cost follows them, not the
 * store) once something is pending, at most once per {@code iceberg.sync_interval}, so changes that arrive together
 * share one snapshot and a change reaches the view within the interval plus one sync. Being one thread, two syncs
 * of this process never run at once.
 *
 * <p>A full reconciliation (every partition) runs first at start, then once {@code iceberg.reconcile_interval} has
 * passed since the last one, and whenever more partitions are pending than the collector holds: it picks up what no
 * component of this process reported (another process's writes). A failed sync puts its partitions back and is an
 * event, never a stop: the view only lags, and GC keeps what its snapshots reference.
 *
 * <p>Internal to ourios-server: public so that {@link dev.ourios.server.Server} can assemble it.
 */
public final class IcebergSyncLoop implements AutoCloseable {
    /**
     * Partitions held pending before the next sync widens to every partition: a few hundred KiB of keys, far more
     * than an interval's flushes and commits touch, reached only by a long failure or a store-wide deletion.
     */
    public static final int MAX_PENDING_PARTITIONS = 10_000;

    private final IcebergSync sync;
    private final PendingPartitions pending;
    private final EventLog events;
    private final Clock clock;
    private final Duration syncInterval;
    private final Duration reconcileInterval;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final Thread thread;
    /** When the last full reconciliation started that succeeded; empty until one has (the next sync is then full). */
    private Optional<Instant> lastFull = Optional.empty();
    /** When the last sync started, successful or not: the next starts no sooner than the sync interval after it. */
    private Optional<Instant> lastStart = Optional.empty();

    public IcebergSyncLoop(IcebergSync sync, PendingPartitions pending, EventLog events, Clock clock, Duration syncInterval,
            Duration reconcileInterval) {
        this.sync = sync;
        this.pending = pending;
        this.events = events;
        this.clock = clock;
        this.syncInterval = syncInterval;
        this.reconcileInterval = reconcileInterval;
        this.thread = new Thread(this::run, "ourios-iceberg-sync");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /**
     * What the status page shows of the view: the last sync that succeeded and the last failure, if any.
     *
     * @param lastSync    when the last successful sync started
     * @param version     the view's version after it (0 before any)
     * @param liveFiles   the files the view held after it
     * @param lastError   the message of the last failed sync, when it failed after the last success
     * @param pending     whether changed partitions wait for the next sync
     */
    public record State(Optional<Instant> lastSync, long version, long liveFiles, Optional<String> lastError,
            boolean pending) {
    }

    private volatile Optional<Instant> lastSuccess = Optional.empty();
    private volatile long lastVersion;
    private volatile long lastLiveFiles;
    private volatile Optional<String> lastError = Optional.empty();

    /** The view's sync state, read without waiting for the syncer. */
    public State state() {
        return new State(lastSuccess, lastVersion, lastLiveFiles, lastError, pending.any());
    }

    /**
     * How long to wait before the next sync may start: zero when it is due now (a reconciliation is due, or a change
     * is pending and the sync interval has passed since the last start).
     */
    Duration untilNext(Instant now) {
        boolean reconcile = reconcileDue(now);
        if (!reconcile && !pending.any()) {
            return Duration.between(now, lastFull.orElseThrow().plus(reconcileInterval));
        }
        Instant earliest = lastStart.map(s -> s.plus(syncInterval)).orElse(now);
        return now.isBefore(earliest) ? Duration.between(now, earliest) : Duration.ZERO;
    }

    /**
     * One sync of what is pending (every partition when a reconciliation is due), whatever the interval; empty when
     * nothing was pending. A failure puts the scope back and is reported as an event.
     */
    Optional<SyncResult> syncNow() {
        Instant start = clock.instant();
        if (reconcileDue(start)) {
            pending.requireEveryPartition();
        }
        Optional<SyncScope> scope = pending.take();
        if (scope.isEmpty()) {
            return Optional.empty();
        }
        lastStart = Optional.of(start);
        try {
            SyncResult r = sync.sync(scope.get());
            lastSuccess = Optional.of(start);
            lastVersion = r.version();
            lastLiveFiles = r.liveFiles();
            lastError = Optional.empty();
            if (r.full()) {
                lastFull = Optional.of(start);
            }
            if (r.changed()) {
                Map<String, Object> a = new LinkedHashMap<>();
                a.put("ourios.iceberg.version", r.version());
                a.put("ourios.iceberg.full", r.full());
                a.put("ourios.iceberg.partitions_read", r.partitionsRead());
                a.put("ourios.iceberg.partitions_changed", r.partitionsChanged());
                a.put("ourios.iceberg.files_added", r.filesAdded());
                a.put("ourios.iceberg.files_removed", r.filesRemoved());
                a.put("ourios.iceberg.live_files", r.liveFiles());
                a.put("duration_s", r.elapsed().toNanos() / 1e9);
                events.info("ourios.iceberg.synced", "Iceberg view version " + r.version() + ": "
                        + r.partitionsChanged() + " partition(s) changed", a);
            }
            return Optional.of(r);
        } catch (Exception e) {
            // The scope stays pending: the next sync, an interval later, reads these partitions again.
            pending.restore(scope.get());
            String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            lastError = Optional.of(msg);
            events.warn("ourios.iceberg.sync.error", "Iceberg view not synced: " + msg,
                    Map.of("ourios.iceberg.full", scope.get().isFull(), "error.message", msg));
            return Optional.empty();
        }
    }

    private boolean reconcileDue(Instant now) {
        return lastFull.isEmpty() || !now.isBefore(lastFull.get().plus(reconcileInterval));
    }

    private void run() {
        try {
            while (stop.getCount() > 0) {
                Duration wait = untilNext(clock.instant());
                if (wait.isZero() || wait.isNegative()) {
                    syncNow();
                } else if (pending.any()) {
                    // A change waits for the interval since the last sync; only a stop ends this wait early.
                    stop.await(wait.toNanos(), TimeUnit.NANOSECONDS);
                } else {
                    // Nothing pending: a change (or a stop) ends this wait, or the reconciliation falls due.
                    pending.await(wait);
                }
            }
            // Stopping: what the drain flushed last reaches the view now rather than at the next start's
            // reconciliation. A reconciliation that is due is left to that start.
            if (pending.any() && !reconcileDue(clock.instant())) {
                syncNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the thread: a sync under way finishes, then one last sync of what is pending; waits at most {@code max}. */
    public void stop(Duration max) throws InterruptedException {
        stop.countDown();
        pending.wake();
        thread.join(Math.max(1, max.toMillis()));
    }

    @Override
    public void close() throws InterruptedException {
        stop(Duration.ofSeconds(30));
    }
}
