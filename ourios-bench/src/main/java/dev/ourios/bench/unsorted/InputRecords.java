package dev.ourios.bench.unsorted;

import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.sort.WeightedQueue;
import dev.ourios.core.Failures;
import dev.ourios.core.LogRecord;
import dev.ourios.core.json.FirstStringCache;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A plan's inputs decoded into records on {@link #READERS} helper threads, each row validated against the partition
 * by the reader contract and re-projected, handed to the caller in batches as they come: reader {@code k} reads
 * inputs {@code k, k + READERS, …}, so each input's rows arrive in row order but the inputs' batches interleave.
 * The product's sorted rewrite reads its inputs on as many threads (as encoded rows); this keeps the baseline's
 * decoding off the writing thread the same way, so the two differ in what sorting costs, not in how they read.
 * A failing input's exception reaches the caller in place of the rest of the rows.
 */
final class InputRecords implements AutoCloseable {
    static final int READERS = 2;
    /** What may wait between the readers and the caller, as the product's input queue allows. */
    private static final long QUEUE_BYTES = 2L << 20;
    private static final int BATCH_ROWS = 1024;
    private static final long BATCH_BYTES = 1L << 20;

    /** Receives each row as read and as re-projected. */
    @FunctionalInterface
    interface RowHandler {
        void accept(LogRecord source, LogRecord projected) throws IOException;
    }

    private final int inputs;
    private final WeightedQueue<Batch> queue = new WeightedQueue<>(QUEUE_BYTES);
    private final List<Thread> readers = new ArrayList<>();
    private volatile boolean closed;

    InputRecords(ObjectStore store, CompactionPlan plan) {
        this.inputs = plan.inputs().size();
        int n = Math.max(1, Math.min(READERS, inputs));
        for (int k = 0; k < n; k++) {
            int first = k;
            Thread t = new Thread(() -> readEvery(store, plan, first, n), "ourios-input-reader-" + k);
            t.setDaemon(true);
            readers.add(t);
            t.start();
        }
    }

    /** Hands every row of every input to {@code handler}; rethrows the first input failure it meets. */
    void forEach(RowHandler handler) throws IOException {
        int ended = 0;
        while (ended < inputs) {
            Batch b = queue.take();
            for (int i = 0; i < b.sources.size(); i++) {
                handler.accept(b.sources.get(i), b.projected.get(i));
            }
            if (b.failure != null) {
                Failures.rethrow(b.failure);
            }
            if (b.inputDone) {
                ended++;
            }
        }
    }

    private void readEvery(ObjectStore store, CompactionPlan plan, int first, int stride) {
        ServiceNames services = new ServiceNames();
        try {
            for (int input = first; input < inputs && !closed; input += stride) {
                Batch batch = new Batch();
                try (LogFileReader r = LogFileReader.open(store, plan.inputs().get(input).key(),
                        ReadOptions.partition(plan.partition()))) {
                    LogRecord row;
                    while (!closed && (row = r.read()) != null) {
                        batch.add(row, row.reprojected(services.of(row.resourceAttributes())));
                        if (batch.full()) {
                            queue.put(batch, batch.bytes);
                            batch = new Batch();
                        }
                    }
                } catch (InterruptedIOException e) {
                    return; // closed: nobody is waiting
                } catch (IOException | RuntimeException | Error e) {
                    batch.failure = e;
                }
                batch.inputDone = true;
                queue.put(batch, batch.bytes);
                if (batch.failure != null) {
                    return;
                }
            }
        } catch (InterruptedIOException e) {
            // closed: nobody is waiting
        }
    }

    /** Stops the readers if the caller gave up early; never blocks for long. */
    @Override
    public void close() {
        closed = true;
        queue.stopProducers(readers);
    }

    /**
     * The derived service name, as the product derives it; resource attributes repeat across rows of one service,
     * so the last answer is kept (identity check) in front of the cache.
     */
    private static final class ServiceNames {
        private final FirstStringCache cache = FirstStringCache.serviceName();
        private String lastJson;
        private String lastService;

        String of(String json) {
            if (json != lastJson) {
                lastService = cache.get(json).orElse(null);
                lastJson = json;
            }
            return lastService;
        }
    }

    private static final class Batch {
        final List<LogRecord> sources = new ArrayList<>();
        final List<LogRecord> projected = new ArrayList<>();
        long bytes;
        boolean inputDone;
        Throwable failure;

        void add(LogRecord source, LogRecord projectedRow) {
            sources.add(source);
            projected.add(projectedRow);
            bytes += source.roughHeapBytes();
        }

        boolean full() {
            return sources.size() >= BATCH_ROWS || bytes >= BATCH_BYTES;
        }
    }
}
