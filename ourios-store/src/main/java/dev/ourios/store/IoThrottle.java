package dev.ourios.store;

import java.util.Optional;

/**
 * One token bucket per direction, shared by every store view it makes: build one per process (or per sweep runner)
 * so concurrent work through different views shares the same bytes per second.
 */
public final class IoThrottle {
    public static final IoThrottle NONE = new IoThrottle(Optional.empty(), Optional.empty());

    private final Optional<RateLimiter> reads;
    private final Optional<RateLimiter> writes;

    /**
     * @param reads  the bucket charged by bytes read; empty = reads unthrottled
     * @param writes the bucket charged by bytes written; empty = writes unthrottled
     */
    public IoThrottle(Optional<RateLimiter> reads, Optional<RateLimiter> writes) {
        this.reads = reads;
        this.writes = writes;
    }

    /** Real-clock buckets for {@code rates}, each with a burst of one second's worth. */
    public static IoThrottle of(IoRates rates) {
        return new IoThrottle(bucket(rates.readBytesPerSecond()), bucket(rates.writeBytesPerSecond()));
    }

    /** {@code store} itself when nothing is throttled (no cost at all), else a throttled view of it. */
    public ObjectStore view(ObjectStore store) {
        if (reads.isEmpty() && writes.isEmpty()) {
            return store;
        }
        return new ThrottledObjectStore(store, this);
    }

    Optional<RateLimiter> reads() {
        return reads;
    }

    Optional<RateLimiter> writes() {
        return writes;
    }

    @Override
    public String toString() {
        return "reads " + reads.map(RateLimiter::toString).orElse("unthrottled") + ", writes "
                + writes.map(RateLimiter::toString).orElse("unthrottled");
    }

    private static Optional<RateLimiter> bucket(long bytesPerSecond) {
        return bytesPerSecond == 0 ? Optional.empty() : Optional.of(RateLimiter.perSecond(bytesPerSecond));
    }
}
