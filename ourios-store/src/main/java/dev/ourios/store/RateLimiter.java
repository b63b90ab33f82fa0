package dev.ourios.store;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A token bucket of bytes per second, shared by every thread that charges it: the policy of an IO throttle, apart
 * from what is throttled ({@link ThrottledObjectStore}).
 *
 * <p>The bucket holds at most {@code burstBytes} and refills at {@code bytesPerSecond}. A charge always takes its
 * bytes at once, even if that drives the bucket into debt, and the caller then sleeps exactly as long as the debt
 * takes to refill: the wait is computed from the deficit, never polled. So a charge larger than the burst proceeds
 * after waiting its share, and concurrent callers queue behind each other's debt, each waiting for its own bytes
 * plus those reserved before it. Over any interval of length {@code t} from the start, the bytes charged by callers
 * that have returned are at most {@code burstBytes + bytesPerSecond * t}.
 */
public final class RateLimiter {
    private static final double NANOS_PER_SECOND = 1e9;

    /** Sleeps the calling thread; injectable so the bucket's arithmetic can be tested on a fake clock. */
    @FunctionalInterface
    public interface Sleeper {
        void sleepNanos(long nanos) throws InterruptedException;
    }

    private final long bytesPerSecond;
    private final long burstBytes;
    private final LongSupplier nanoTime;
    private final Sleeper sleeper;
    private double tokens; // guarded by this; negative = debt already handed out
    private long lastNanos; // guarded by this

    /**
     * @param bytesPerSecond the sustained rate, at least 1
     * @param burstBytes     what the bucket holds when idle (it starts full), at least 1
     * @param nanoTime       a monotonic clock in nanoseconds ({@code System::nanoTime})
     * @param sleeper        how a caller waits out its debt
     */
    public RateLimiter(long bytesPerSecond, long burstBytes, LongSupplier nanoTime, Sleeper sleeper) {
        if (bytesPerSecond < 1) {
            throw new IllegalArgumentException("rate must be at least 1 byte per second (got " + bytesPerSecond + ")");
        }
        if (burstBytes < 1) {
            throw new IllegalArgumentException("burst must be at least 1 byte (got " + burstBytes + ")");
        }
        this.bytesPerSecond = bytesPerSecond;
        this.burstBytes = burstBytes;
        this.nanoTime = nanoTime;
        this.sleeper = sleeper;
        this.tokens = burstBytes;
        this.lastNanos = nanoTime.getAsLong();
    }

    /** A limiter on the real clock whose burst is one second's worth of bytes. */
    public static RateLimiter perSecond(long bytesPerSecond) {
        return new RateLimiter(bytesPerSecond, bytesPerSecond, System::nanoTime, TimeUnit.NANOSECONDS::sleep);
    }

    public long bytesPerSecond() {
        return bytesPerSecond;
    }

    public long burstBytes() {
        return burstBytes;
    }

    /** Charges {@code bytes} and waits until the bucket has paid them back; 0 or less returns at once. */
    public void acquire(long bytes) throws InterruptedException {
        long wait = reserve(bytes);
        if (wait > 0) {
            // Sleep outside the lock: other callers reserve (and queue behind this debt) meanwhile.
            sleeper.sleepNanos(wait);
        }
    }

    /** Takes {@code bytes} from the bucket and returns how many nanoseconds the caller must wait for them. */
    synchronized long reserve(long bytes) {
        if (bytes <= 0) {
            return 0;
        }
        long now = nanoTime.getAsLong();
        long elapsed = Math.max(0, now - lastNanos);
        lastNanos = now;
        tokens = Math.min(burstBytes, tokens + elapsed * (bytesPerSecond / NANOS_PER_SECOND));
        tokens -= bytes;
        return tokens >= 0 ? 0 : (long) Math.ceil(-tokens * NANOS_PER_SECOND / bytesPerSecond);
    }

    @Override
    public String toString() {
        return bytesPerSecond + " B/s (burst " + burstBytes + " B)";
    }
}
