package dev.ourios.security;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * A WARN log a flood cannot fill: at most {@code perSecond} lines a second for each reason; the lines dropped are
 * counted and the next line of that reason says how many were suppressed. Refusals are logged through one of these,
 * so a client retrying a bad request in a loop costs the log a few lines a second, not one per request.
 */
public final class ThrottledLog {
    private static final long SECOND_NANOS = 1_000_000_000L;
    private final Logger log;
    private final int perSecond;
    private final LongSupplier nanoClock;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    public ThrottledLog(Logger log, int perSecond) {
        this(log, perSecond, System::nanoTime);
    }

    /** With the clock given: for tests. */
    public ThrottledLog(Logger log, int perSecond, LongSupplier nanoClock) {
        if (perSecond < 1) {
            throw new IllegalArgumentException("perSecond must be at least 1 (got " + perSecond + ")");
        }
        this.log = log;
        this.perSecond = perSecond;
        this.nanoClock = nanoClock;
    }

    /**
     * Logs {@code line} at WARN unless this second's lines of {@code reason} are spent.
     *
     * @return true when the line was written
     */
    public boolean warn(String reason, String line) {
        long suppressed = windows.computeIfAbsent(reason, r -> new Window()).admit(nanoClock.getAsLong(), perSecond);
        if (suppressed < 0) {
            return false;
        }
        log.warn(suppressed == 0 ? line : line + " (" + suppressed + " more refusals for " + reason
                + " not logged)");
        return true;
    }

    /** One reason's current second: lines written in it, and lines suppressed since the last written one. */
    private static final class Window {
        private long start = Long.MIN_VALUE;
        private int written;
        private long suppressed;

        /** The suppressed count to report with a line that may be written, or -1 when it must be dropped. */
        synchronized long admit(long now, int perSecond) {
            if (start == Long.MIN_VALUE || now - start >= SECOND_NANOS) {
                start = now;
                written = 0;
            }
            if (written >= perSecond) {
                suppressed++;
                return -1;
            }
            written++;
            long s = suppressed;
            suppressed = 0;
            return s;
        }
    }
}
