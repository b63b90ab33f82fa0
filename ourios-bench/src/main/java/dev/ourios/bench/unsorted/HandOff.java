package dev.ourios.bench.unsorted;

import java.io.InterruptedIOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;

/**
 * A queue between two threads bounded by the bytes of what waits in it: the producer blocks while it holds
 * {@code capacityBytes}; an item heavier than that waits for an empty queue and travels alone. It bounds the
 * baseline's hand-offs the way the product bounds its own, so the baseline holds about as much heap.
 */
final class HandOff<T> {
    private static final int PERMIT_BYTES = 1024;

    private final int permitsTotal;
    private final Semaphore permits;
    private final LinkedBlockingQueue<Entry<T>> queue = new LinkedBlockingQueue<>();

    private record Entry<T>(T item, int permits) {
    }

    HandOff(long capacityBytes) {
        this.permitsTotal = (int) Math.max(1, capacityBytes / PERMIT_BYTES);
        this.permits = new Semaphore(permitsTotal);
    }

    void put(T item, long weightBytes) throws InterruptedIOException {
        int n = (int) Math.min(permitsTotal, Math.max(1, (weightBytes + PERMIT_BYTES - 1) / PERMIT_BYTES));
        try {
            permits.acquire(n);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted handing work to another thread");
        }
        queue.add(new Entry<>(item, n));
    }

    T take() throws InterruptedIOException {
        try {
            Entry<T> e = queue.take();
            permits.release(e.permits());
            return e.item();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for another thread");
        }
    }

    /** Drops everything waiting (the consumer gave up), so a blocked producer can finish. */
    void clear() {
        Entry<T> e;
        while ((e = queue.poll()) != null) {
            permits.release(e.permits());
        }
    }
}
