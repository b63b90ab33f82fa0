package dev.ourios.iceberg;

import dev.ourios.core.PartitionKey;
import dev.ourios.table.LiveSetChanges;
import java.time.Duration;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The partitions whose live sets changed since the view's last successful sync: what the committers and flushers of
 * one process report, collected from any thread, and taken by the one syncer as the scope of its next sync. A sync
 * that fails puts its scope back, so nothing reported is dropped before a sync has read it.
 *
 * <p>Bounded: past {@code limit} partitions the set is dropped and the next scope is every partition (a full
 * reconciliation reads them all anyway, and its cost no longer follows the changes), so memory stays small whatever
 * a backlog of flushes or a long failure of the store reports.
 */
public final class PendingPartitions implements LiveSetChanges {
    private final int limit;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final SortedSet<PartitionKey> partitions = new TreeSet<>();
    private boolean everyPartition;
    private boolean woken;

    /** @param limit the most partitions held before the next scope widens to every partition (positive) */
    public PendingPartitions(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive, got " + limit);
        }
        this.limit = limit;
    }

    @Override
    public void changed(PartitionKey partition) {
        lock.lock();
        try {
            add(partition);
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The next sync must read every partition (a full reconciliation), whatever else is pending. */
    public void requireEveryPartition() {
        lock.lock();
        try {
            everyPartition = true;
            partitions.clear();
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** True if a change is pending: the next {@link #take()} returns a scope. */
    public boolean any() {
        lock.lock();
        try {
            return everyPartition || !partitions.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until a change is pending, {@link #wake()} is called or {@code max} has passed, whichever is first.
     *
     * @return true if a change is pending
     */
    public boolean await(Duration max) throws InterruptedException {
        long left = max.toNanos();
        lock.lock();
        try {
            while (!everyPartition && partitions.isEmpty() && !woken && left > 0) {
                left = arrived.awaitNanos(left);
            }
            woken = false;
            return everyPartition || !partitions.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Makes a thread in {@link #await} return now (a stop). */
    public void wake() {
        lock.lock();
        try {
            woken = true;
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes what is pending as the scope of one sync, and clears it.
     *
     * @return every partition after an overflow or {@link #requireEveryPartition()}, the reported partitions
     *         otherwise, empty when nothing is pending
     */
    public Optional<SyncScope> take() {
        lock.lock();
        try {
            Optional<SyncScope> out = everyPartition ? Optional.of(SyncScope.all())
                    : partitions.isEmpty() ? Optional.empty() : Optional.of(SyncScope.of(partitions));
            everyPartition = false;
            partitions.clear();
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** Puts back the scope of a sync that failed, beside whatever was reported since it was taken. */
    public void restore(SyncScope scope) {
        lock.lock();
        try {
            if (scope.isFull()) {
                everyPartition = true;
                partitions.clear();
            } else {
                scope.partitions().orElseThrow().forEach(this::add);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock. */
    private void add(PartitionKey partition) {
        if (everyPartition) {
            return;
        }
        partitions.add(partition);
        if (partitions.size() > limit) {
            everyPartition = true;
            partitions.clear();
        }
    }
}
