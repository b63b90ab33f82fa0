package dev.ourios.server.tail;

import dev.ourios.core.LogRecord;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * One tail client's bounded queue: the flush thread offers the rows of each landed file that match the client's
 * query; rows that do not fit are counted as dropped rather than held, so a client that reads slowly costs at most
 * {@code capacity} rows of memory. The client's thread takes what is queued, waiting up to a heartbeat for it.
 */
public final class TailSubscription implements AutoCloseable {
    private final String tenant;
    private final Predicate<LogRecord> filter;
    private final int capacity;
    private final Runnable onClose;
    private final ArrayDeque<LogRecord> queue = new ArrayDeque<>();
    private long dropped;
    private boolean closed;

    TailSubscription(String tenant, Predicate<LogRecord> filter, int capacity, Runnable onClose) {
        this.tenant = tenant;
        this.filter = filter;
        this.capacity = capacity;
        this.onClose = onClose;
    }

    /** What the client is sent next: rows, the rows dropped since the last take, and whether the tail has ended. */
    public record Batch(List<LogRecord> rows, long dropped, boolean ended) {
    }

    String tenant() {
        return tenant;
    }

    /** Queues the rows of one landed file that match; those beyond the capacity are counted as dropped. */
    void offer(List<LogRecord> rows) {
        List<LogRecord> matching = new ArrayList<>();
        for (LogRecord r : rows) {
            if (filter.test(r)) {
                matching.add(r);
            }
        }
        if (matching.isEmpty()) {
            return;
        }
        synchronized (this) {
            for (LogRecord r : matching) {
                if (queue.size() < capacity) {
                    queue.add(r);
                } else {
                    dropped++;
                }
            }
            notifyAll();
        }
    }

    /** The tail ends (the server stops): the client is told once what is queued is sent. */
    synchronized void end() {
        closed = true;
        notifyAll();
    }

    /**
     * Waits at most {@code wait} for rows, a drop or the end, and takes them; an empty batch that has not ended means
     * the wait passed (time for a heartbeat).
     */
    public synchronized Batch take(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (queue.isEmpty() && dropped == 0 && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        List<LogRecord> rows = new ArrayList<>(queue);
        queue.clear();
        long d = dropped;
        dropped = 0;
        return new Batch(rows, d, closed && rows.isEmpty() && d == 0);
    }

    /** The client is gone: no more rows are queued for it. */
    @Override
    public void close() {
        end();
        onClose.run();
    }
}
