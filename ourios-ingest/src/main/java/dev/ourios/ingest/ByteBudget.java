package dev.ourios.ingest;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A non-blocking budget of heap bytes shared by the requests in flight: a request that cannot get its share is
 * refused (429) instead of queued, so memory stays bounded and no queue grows without bound.
 */
public final class ByteBudget {
    private final long limit;
    private final AtomicLong used = new AtomicLong();

    public ByteBudget(long limit) {
        this.limit = limit;
    }

    public boolean tryAcquire(long n) {
        while (true) {
            long u = used.get();
            if (u + n > limit) {
                return false;
            }
            if (used.compareAndSet(u, u + n)) {
                return true;
            }
        }
    }

    public void release(long n) {
        used.addAndGet(-n);
    }

    public long used() {
        return used.get();
    }
}
