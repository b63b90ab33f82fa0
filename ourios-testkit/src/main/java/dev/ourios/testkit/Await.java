package dev.ourios.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waiting for a condition with a deadline: the one way tests wait for something another thread or process does.
 * The condition is checked at once, then at growing intervals (1 ms doubling up to 50 ms, or a smaller maximum),
 * so a condition that comes true quickly is seen quickly and a slow one does not spin.
 */
public final class Await {
    private static final long FIRST_PAUSE_NANOS = 1_000_000L;
    private static final long MAX_PAUSE_NANOS = 50_000_000L;

    private Await() {
    }

    /**
     * Returns once {@code condition} holds; throws {@link IllegalStateException} naming {@code what} if it still
     * does not after {@code timeout}.
     */
    public static void until(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        until(() -> what, timeout, condition);
    }

    /** As {@link #until(String, Duration, BooleanSupplier)}, the description computed only on failure. */
    public static void until(Supplier<String> what, Duration timeout, BooleanSupplier condition)
            throws InterruptedException {
        if (!poll(timeout, condition)) {
            throw new IllegalStateException("timed out after " + timeout + " waiting for " + what.get());
        }
    }

    /** True as soon as {@code condition} holds; false if it still does not after {@code timeout}. */
    public static boolean poll(Duration timeout, BooleanSupplier condition) throws InterruptedException {
        return poll(timeout, Duration.ofNanos(MAX_PAUSE_NANOS), condition);
    }

    /**
     * As {@link #poll(Duration, BooleanSupplier)}, never pausing longer than {@code maxPause} between checks: for a
     * probe that must notice the condition within that long (e.g. to act while it still holds).
     */
    public static boolean poll(Duration timeout, Duration maxPause, BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long maxPauseNanos = Math.max(1, maxPause.toNanos());
        long pause = Math.min(FIRST_PAUSE_NANOS, maxPauseNanos);
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            long nanos = Math.min(pause, left);
            Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
            pause = Math.min(maxPauseNanos, pause * 2);
        }
    }
}
