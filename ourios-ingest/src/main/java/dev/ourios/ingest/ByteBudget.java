package dev.ourios.ingest;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A non-blocking budget of heap bytes shared by the requests in flight: a request that cannot get its share is
 * refused (429) instead of queued, so memory stays bounded and no queue grows without bound.
 *
 * <p><b>Fair share.</b> Bytes charged for a tenant count against the whole budget and against that tenant's own
 * cap ({@code maxShare} of the budget): one tenant holding its cap is refused while the others still get theirs, so
 * no tenant, however many connections it opens, can starve the rest. Callers charge bytes as they arrive (a body
 * chunk by chunk), never a length a client only announced.
 */
public final class ByteBudget {
    private final long limit;
    private final long perOwnerLimit;
    private final AtomicLong used = new AtomicLong();
    private final ConcurrentHashMap<String, Long> byOwner = new ConcurrentHashMap<>();

    public ByteBudget(long limit) {
        this(limit, 1.0);
    }

    /** @param maxShare the fraction of {@code limit} one owner (a tenant) may hold, in (0, 1] */
    public ByteBudget(long limit, double maxShare) {
        this.limit = limit;
        this.perOwnerLimit = Math.max(1, (long) Math.floor(limit * maxShare));
    }

    /** Charges {@code n} bytes to no one in particular (the whole budget only). */
    public boolean tryAcquire(long n) {
        return acquireGlobal(n);
    }

    public void release(long n) {
        used.addAndGet(-n);
    }

    /** Charges {@code n} bytes for {@code owner}: refused when the budget or the owner's share would be exceeded. */
    public boolean tryAcquire(String owner, long n) {
        boolean[] granted = {false};
        // compute is atomic per key: the check and the charge of one owner cannot interleave with another's.
        byOwner.compute(owner, (k, held) -> {
            long u = held == null ? 0 : held;
            if (u + n > perOwnerLimit) {
                return held;
            }
            granted[0] = true;
            return u + n;
        });
        if (!granted[0]) {
            return false;
        }
        if (!acquireGlobal(n)) {
            releaseOwner(owner, n);
            return false;
        }
        return true;
    }

    /** Returns bytes charged for {@code owner}. */
    public void release(String owner, long n) {
        if (n == 0) {
            return;
        }
        used.addAndGet(-n);
        releaseOwner(owner, n);
    }

    /** Drops the owner's entry once it holds nothing, so idle tenants cost no memory. */
    private void releaseOwner(String owner, long n) {
        byOwner.compute(owner, (k, held) -> {
            long left = (held == null ? 0 : held) - n;
            return left <= 0 ? null : left;
        });
    }

    public long used() {
        return used.get();
    }

    /** What {@code owner} holds now. */
    public long used(String owner) {
        return byOwner.getOrDefault(owner, 0L);
    }

    /** The most one owner may hold. */
    public long perOwnerLimit() {
        return perOwnerLimit;
    }

    private boolean acquireGlobal(long n) {
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
}
