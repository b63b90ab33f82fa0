package dev.ourios.bench.soak;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.LongSupplier;

/**
 * The soak's notion of "now" for ingest and sealing: {@code origin} plus the wall time elapsed since
 * {@code wallOriginNanos}, multiplied by {@code speed}. With speed 1 and origin = the wall clock it is real time;
 * with speed 120 a partition hour passes in 30 s, so the compaction daemon (whose plan clock this is) sees hours
 * seal in minutes while GC and commits keep using the real clock.
 */
public final class SoakClock extends Clock {
    private final Instant origin;
    private final long wallOriginNanos;
    private final double speed;
    private final LongSupplier ticker;

    public SoakClock(Instant origin, long wallOriginNanos, double speed, LongSupplier ticker) {
        if (!(speed > 0)) {
            throw new IllegalArgumentException("speed must be > 0, got " + speed);
        }
        this.origin = origin;
        this.wallOriginNanos = wallOriginNanos;
        this.speed = speed;
        this.ticker = ticker;
    }

    /** Starts now at {@code origin}, running {@code speed} times faster than the wall clock. */
    public static SoakClock startingAt(Instant origin, double speed) {
        return new SoakClock(origin, System.nanoTime(), speed, System::nanoTime);
    }

    public double speed() {
        return speed;
    }

    @Override
    public Instant instant() {
        long elapsed = ticker.getAsLong() - wallOriginNanos;
        return origin.plusNanos(Math.round(elapsed * speed));
    }

    /** The {@link System#nanoTime()} reading at which this clock reads {@code t}. */
    public long wallNanosAt(Instant t) {
        return wallOriginNanos + Math.round(Duration.between(origin, t).toNanos() / speed);
    }

    /** Wall seconds elapsed since the origin. */
    public double wallSeconds() {
        return (ticker.getAsLong() - wallOriginNanos) / 1e9;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        if (!ZoneOffset.UTC.equals(zone)) {
            throw new UnsupportedOperationException("the soak clock is UTC only");
        }
        return this;
    }
}
