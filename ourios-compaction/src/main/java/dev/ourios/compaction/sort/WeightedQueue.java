package dev.ourios.compaction.sort;

import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;

/**
 * A hand-off queue between two threads bounded by the weight (bytes) of what waits in it, not by a count: the
 * producer blocks while the queue holds {@code capacityBytes}; an item heavier than that waits for an empty queue
 * and then travels alone. So what waits is at most {@code max(capacityBytes, heaviest item)}, plus what the consumer
 * holds after taking an item.
 *
 * <p>Public: the rewriter's background checksum ({@code dev.ourios.compaction}) and the benchmark's unsorted
 * baseline hand their batches over through one too.
 */
public final class WeightedQueue<T> {
    private static final int PERMIT_BYTES = 1024;

    private final int permitsTotal;
    private final Semaphore permits;
    private final LinkedBlockingQueue<Entry<T>> queue = new LinkedBlockingQueue<>();

    private record Entry<T>(T item, int permits) {
    }

    public WeightedQueue(long capacityBytes) {
        this.permitsTotal = (int) Math.max(1, capacityBytes / PERMIT_BYTES);
        this.permits = new Semaphore(permitsTotal);
    }

    public void put(T item, long weightBytes) throws InterruptedIOException {
        int n = (int) Math.min(permitsTotal, Math.max(1, (weightBytes + PERMIT_BYTES - 1) / PERMIT_BYTES));
        try {
            permits.acquire(n);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted handing work to another thread");
        }
        queue.add(new Entry<>(item, n));
    }

    /** Waits for the next item; its weight leaves the queue's account as it is taken. */
    public T take() throws InterruptedIOException {
        try {
            Entry<T> e = queue.take();
            permits.release(e.permits());
            return e.item();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for another thread");
        }
    }

    /** Drops everything waiting (the consumer gave up), so a producer blocked in {@link #put} can finish. */
    public void clear() {
        Entry<T> e;
        while ((e = queue.poll()) != null) {
            permits.release(e.permits());
        }
    }

    /**
     * Stops the threads that put into this queue when the consumer gave up early (an error elsewhere): interrupts
     * them and, for at most ten seconds in all, keeps clearing the queue so one blocked on a full queue can finish.
     * Never blocks for long; a producer still alive after that is left to end on its interrupt.
     */
    public void stopProducers(List<Thread> producers) {
        producers.forEach(Thread::interrupt);
        long deadline = System.nanoTime() + 10_000_000_000L;
        try {
            for (Thread t : producers) {
                while (t.isAlive() && System.nanoTime() < deadline) {
                    clear();
                    t.join(50);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
