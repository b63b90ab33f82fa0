package dev.ourios.query;

import dev.ourios.core.LogRecord;
import dev.ourios.core.RowCondition;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A row condition standing for a costly filter: testing a row runs until the testing thread is interrupted (at most
 * 30 s), for the first row tested or for every row; then the row matches. Counts the rows tested, and opens
 * {@link #started} at the first.
 */
final class SpinningCondition implements RowCondition {
    final AtomicLong tested = new AtomicLong();
    final CountDownLatch started = new CountDownLatch(1);
    private final boolean everyRow;

    SpinningCondition(boolean everyRow) {
        this.everyRow = everyRow;
    }

    @Override
    public boolean test(LogRecord row) {
        long n = tested.incrementAndGet();
        started.countDown();
        if (everyRow || n == 1) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Thread.currentThread().isInterrupted() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
        }
        return true;
    }

    @Override
    public String text() {
        return "slow";
    }
}
