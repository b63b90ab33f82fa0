package dev.ourios.bench.unsorted;

import dev.ourios.compaction.sort.WeightedQueue;
import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.LogRecord;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link RowChecksum} of records hashed on a helper thread, as the product hashes the rows it writes off the
 * compacting thread: so the baseline pays for its checksums where the sorted rewrite does. The calling thread counts
 * rows and hands over batches; what waits is bounded by {@link #IN_FLIGHT_BYTES} of the rows' given weights. One
 * instance per stream of rows, fed from one thread; {@link #value()} waits for the helper.
 */
final class RecordChecksumThread implements AutoCloseable {
    private static final long IN_FLIGHT_BYTES = 2L << 20;
    private static final long BATCH_BYTES = 256L << 10;
    private static final int BATCH_ROWS = 4096;
    private static final List<LogRecord> END = List.of();

    private final RowChecksum sum = new RowChecksum();
    private final WeightedQueue<List<LogRecord>> queue = new WeightedQueue<>(IN_FLIGHT_BYTES);
    private final Thread helper;
    private List<LogRecord> filling = new ArrayList<>();
    private long fillingWeight;
    private long rows;
    private volatile Throwable failure;

    RecordChecksumThread(String threadName) {
        this.helper = new Thread(this::hashBatches, threadName);
        helper.setDaemon(true);
        helper.start();
    }

    /** Adds a row; {@code weight} bounds the heap it holds while waiting to be hashed. */
    void add(LogRecord r, long weight) throws IOException {
        rows++;
        filling.add(r);
        fillingWeight += weight;
        if (fillingWeight >= BATCH_BYTES || filling.size() >= BATCH_ROWS) {
            handOver();
        }
    }

    long rows() {
        return rows;
    }

    /** {@code <rows>:<hex>} once every row added has been hashed. */
    String value() throws IOException {
        handOver();
        queue.put(END, 0);
        try {
            helper.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the checksum thread");
        }
        if (failure != null) {
            throw new IllegalStateException("checksum thread failed: " + failure, failure);
        }
        return sum.value();
    }

    /** Stops the helper if {@link #value()} was not reached (an error path). */
    @Override
    public void close() {
        if (helper.isAlive()) {
            helper.interrupt();
            try {
                helper.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void handOver() throws IOException {
        if (filling.isEmpty()) {
            return;
        }
        queue.put(filling, fillingWeight);
        filling = new ArrayList<>();
        fillingWeight = 0;
    }

    private void hashBatches() {
        try {
            for (List<LogRecord> b = queue.take(); b != END; b = queue.take()) {
                try {
                    if (failure == null) {
                        b.forEach(sum::add);
                    }
                } catch (RuntimeException | Error e) {
                    failure = e; // keep draining so the caller never blocks on a full queue
                }
            }
        } catch (InterruptedIOException e) {
            // closed on an error path
        }
    }
}
