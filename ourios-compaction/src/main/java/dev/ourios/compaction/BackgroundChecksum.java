package dev.ourios.compaction;

import dev.ourios.compaction.sort.WeightedQueue;
import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.rows.StringTable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link RowChecksum} computed on a helper thread, so hashing every value of every row written is off the
 * compaction thread's critical path: the checksum is to cost under 5 % of a compaction (see docs/benchmarks.md),
 * hashing in line costs more than that, and the compacting thread is the one the others wait for while it writes.
 * The calling thread only counts rows and hands batches over; the sum is order-independent, so when the helper
 * hashes a row does not matter.
 *
 * <p>Rows handed over must not change afterwards: decoded records are immutable, and the sorter never writes into
 * a row's bytes once it has emitted them (see {@link dev.ourios.compaction.sort.ExternalSorter.RowSink}). What the
 * helper holds is bounded: batches waiting weigh at most {@link #IN_FLIGHT_BYTES} (or one batch, if a single row is
 * larger), plus the batch being hashed, and the caller blocks when the helper falls that far behind. That bound is
 * outside the sort budget; see docs/architecture.md (heap planning).
 *
 * <p>One instance per stream of rows, fed from one thread; {@link #value()} waits for the helper to finish.
 */
final class BackgroundChecksum implements AutoCloseable {
    /** Rows waiting for or being hashed, in bytes (records: a pessimistic decoded weight). */
    static final long IN_FLIGHT_BYTES = 2L << 20;
    private static final long BATCH_BYTES = 256L << 10;
    private static final int BATCH_ROWS = 4096;

    private final RowChecksum sum;
    private final Thread helper;
    private final WeightedQueue<Batch> queue = new WeightedQueue<>(IN_FLIGHT_BYTES);
    private Batch filling = new Batch();
    private long rows;
    private String value;
    private volatile Throwable failure;

    private BackgroundChecksum(RowChecksum sum, String threadName) {
        this.sum = sum;
        if (threadName == null) {
            this.helper = null;
        } else {
            this.helper = new Thread(this::hashBatches, threadName);
            this.helper.setDaemon(true);
            this.helper.start();
        }
    }

    /** A checksum hashed on a new helper thread named {@code threadName}. */
    static BackgroundChecksum start(String threadName) {
        return new BackgroundChecksum(new RowChecksum(true), threadName);
    }

    /** Counts rows only, with no helper ({@link RowVerification#ROW_COUNTS}). */
    static BackgroundChecksum counting() {
        return new BackgroundChecksum(new RowChecksum(false), null);
    }

    /** Adds a decoded row; {@code weight} bounds the heap it holds while waiting to be hashed. */
    void add(LogRecord r, long weight) throws IOException {
        rows++;
        if (helper == null) {
            sum.add(r);
            return;
        }
        filling.records.add(r);
        filling.weight += weight;
        handOverIfFull();
    }

    /** Adds an encoded row at {@code buf[offset, offset + length)}; the bytes must not change afterwards. */
    void add(byte[] buf, int offset, int length, StringTable strings) throws IOException {
        rows++;
        if (helper == null) {
            sum.add(buf, offset, strings);
            return;
        }
        Batch b = filling;
        if (b.n == b.arrays.length) {
            b.grow();
        }
        b.arrays[b.n] = buf;
        b.offsets[b.n] = offset;
        b.strings[b.n] = strings;
        b.n++;
        b.weight += length + 16;
        handOverIfFull();
    }

    /** Rows added so far (counted on the calling thread, so available at once). */
    long rows() {
        return rows;
    }

    /**
     * {@code <rows>:<32 hex digits>} once every row added has been hashed; waits for the helper. Throws if the
     * helper failed (a malformed encoded row is a bug, reported rather than hidden).
     */
    String value() throws IOException {
        if (value != null) {
            return value;
        }
        if (helper != null) {
            handOver();
            queue.put(Batch.END, 0);
            try {
                helper.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for the checksum thread");
            }
            if (failure != null) {
                throw new IllegalStateException("checksum thread failed: " + failure, failure);
            }
        }
        if (sum.rows() != rows) {
            throw new IllegalStateException("BUG: checksum thread hashed " + sum.rows() + " of " + rows + " rows");
        }
        value = sum.value();
        return value;
    }

    /** The checksum itself once every row added has been hashed (see {@link #value()}), to add to others. */
    RowChecksum checksum() throws IOException {
        value();
        return sum;
    }

    /** Stops the helper if {@link #value()} was not reached (an error path); never blocks for long. */
    @Override
    public void close() {
        if (helper != null && helper.isAlive()) {
            helper.interrupt();
            try {
                helper.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void handOverIfFull() throws IOException {
        Batch b = filling;
        if (b.weight >= BATCH_BYTES || b.records.size() + b.n >= BATCH_ROWS) {
            handOver();
        }
    }

    private void handOver() throws IOException {
        Batch b = filling;
        if (b.records.isEmpty() && b.n == 0) {
            return;
        }
        if (failure != null) {
            throw new IllegalStateException("checksum thread failed: " + failure, failure);
        }
        queue.put(b, b.weight);
        filling = new Batch();
    }

    private void hashBatches() {
        try {
            while (true) {
                Batch b = queue.take();
                if (b == Batch.END) {
                    return;
                }
                try {
                    if (failure == null) {
                        for (LogRecord r : b.records) {
                            sum.add(r);
                        }
                        for (int i = 0; i < b.n; i++) {
                            sum.add(b.arrays[i], b.offsets[i], b.strings[i]);
                        }
                    }
                } catch (RuntimeException | Error e) {
                    failure = e; // keep draining so the caller never blocks on a full queue
                }
            }
        } catch (InterruptedIOException e) {
            // closed on an error path
        }
    }

    /** Rows handed over together: decoded records, or encoded rows with their string tables. */
    private static final class Batch {
        static final Batch END = new Batch();
        final List<LogRecord> records = new ArrayList<>();
        byte[][] arrays = new byte[256][];
        int[] offsets = new int[256];
        StringTable[] strings = new StringTable[256];
        int n;
        long weight;

        void grow() {
            int cap = arrays.length * 2;
            arrays = Arrays.copyOf(arrays, cap);
            offsets = Arrays.copyOf(offsets, cap);
            strings = Arrays.copyOf(strings, cap);
        }
    }
}
