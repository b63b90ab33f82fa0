package dev.ourios.server.query;

import dev.ourios.http.HttpRefusal;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The queries allowed to run at once ({@code http.max_concurrent_queries}): what bounds the heap that query
 * results take. A request that finds no free slot is refused with 429 at once rather than queued. A slot is free
 * again only when its request has answered <em>and</em> every scan it started has ended, so a scan left running
 * past its deadline still counts against the limit.
 */
final class QuerySlots {
    private final Semaphore permits;
    private final int size;

    QuerySlots(int size) {
        this.size = size;
        this.permits = new Semaphore(size);
    }

    int size() {
        return size;
    }

    /** A slot, or 429 when every slot is taken. */
    Slot acquire() {
        if (!permits.tryAcquire()) {
            throw new HttpRefusal(429, null, "every query slot is busy (http.max_concurrent_queries = " + size
                    + "); retry shortly", 1);
        }
        return new Slot();
    }

    /** One query's hold: released when the request and every scan it started have let go. */
    final class Slot implements AutoCloseable {
        private final AtomicInteger holders = new AtomicInteger(1);

        /** A scan starts: it holds the slot until {@link #let()} is called for it. */
        void hold() {
            holders.incrementAndGet();
        }

        void let() {
            if (holders.decrementAndGet() == 0) {
                permits.release();
            }
        }

        /** The request lets go. */
        @Override
        public void close() {
            let();
        }
    }
}
