package dev.ourios.compaction;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.LogFileReader;
import dev.ourios.parquet.ReadOptions;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.schema.MessageType;

/**
 * Reads a plan's inputs on helper threads through the reader contract (row-vs-path validation included) and
 * re-projects every row, handing the compacting thread batches of (source row, re-projected row) in plan order.
 * Decoding Parquet into records and re-projecting them was ~15 % of a compaction, on the compacting thread, and
 * with the writer's work spread over two cores it became the longest part of run formation.
 *
 * <p>With {@code readers} threads, reader {@code k} reads inputs {@code k, k + readers, …} into its own queue, and
 * the caller takes input 0's rows from queue 0, then input 1's from queue 1, and so on: the sort sees exactly the
 * (input ordinal, row ordinal) sequence it saw before, so the output bytes do not change. An input's failure
 * (unreadable, foreign schema, a row in the wrong partition) reaches the caller as the same exception, after every
 * row of the inputs before it. What waits in the queues is bounded by {@link #QUEUE_BYTES} in all (or one batch per
 * reader, if a row is larger); that bound is outside the sort budget, like the checksum helper's
 * (docs/architecture.md, heap planning).
 */
final class PrefetchedInputs implements AutoCloseable {
    /**
     * Reader threads a compaction uses: two, so decoding can use both cores while the compacting thread, which only
     * encodes and buffers rows during run formation, waits for them.
     */
    static final int READERS = 2;
    static final long QUEUE_BYTES = 4L << 20;
    private static final int BATCH_ROWS = 1024;
    private static final long BATCH_BYTES = 1L << 20;

    /** Receives each row: as read and re-projected. */
    @FunctionalInterface
    interface RowHandler {
        void accept(LogRecord source, LogRecord projected) throws IOException;
    }

    private final int inputs;
    private final List<WeightedQueue<Batch>> queues = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();
    /** Each input's file schema, by plan ordinal; each is set before its input's first batch is queued. */
    private final MessageType[] schemas;
    private volatile boolean closed;

    PrefetchedInputs(ObjectStore store, CompactionPlan plan, int readerThreads, String threadName) {
        this.inputs = plan.inputs().size();
        this.schemas = new MessageType[inputs];
        int n = Math.max(1, Math.min(readerThreads, inputs));
        for (int k = 0; k < n; k++) {
            queues.add(new WeightedQueue<>(Math.max(BATCH_BYTES, QUEUE_BYTES / n)));
        }
        for (int k = 0; k < n; k++) {
            int first = k;
            Thread t = new Thread(() -> readEvery(store, plan, first, n), threadName + "-" + k);
            t.setDaemon(true);
            readers.add(t);
            t.start();
        }
    }

    /** Hands every row of every input to {@code handler}, in plan order; rethrows the first input's failure. */
    void forEach(RowHandler handler) throws IOException {
        for (int input = 0; input < inputs; input++) {
            WeightedQueue<Batch> queue = queues.get(input % queues.size());
            while (true) {
                Batch b = queue.take();
                for (int i = 0; i < b.sources.size(); i++) {
                    handler.accept(b.sources.get(i), b.projected.get(i));
                }
                if (b.failure != null) {
                    rethrow(b.failure);
                }
                if (b.inputDone) {
                    break;
                }
            }
        }
    }

    /**
     * The inputs' file schemas in plan order (for the output's union schema, without opening every input again);
     * call after {@link #forEach} returned normally.
     */
    List<MessageType> fileSchemas() {
        return List.copyOf(Arrays.asList(schemas));
    }

    /** Reader {@code first}'s share: inputs first, first + stride, … in order, each ended by a marked batch. */
    private void readEvery(ObjectStore store, CompactionPlan plan, int first, int stride) {
        WeightedQueue<Batch> queue = queues.get(first);
        ServiceNameProjector projector = new ServiceNameProjector();
        try {
            for (int input = first; input < inputs && !closed; input += stride) {
                Batch batch = new Batch();
                try (LogFileReader r = LogFileReader.open(store, plan.inputs().get(input).key(),
                        ReadOptions.partition(plan.partition()))) {
                    schemas[input] = r.fileSchema();
                    LogRecord row;
                    while ((row = r.read()) != null) {
                        if (closed) {
                            return;
                        }
                        batch.add(row, projector.project(row));
                        if (batch.sources.size() >= BATCH_ROWS || batch.bytes >= BATCH_BYTES) {
                            queue.put(batch, batch.bytes);
                            batch = new Batch();
                        }
                    }
                } catch (InterruptedIOException e) {
                    return; // closed: nobody is waiting
                } catch (IOException | RuntimeException | Error e) {
                    batch.failure = e; // the caller stops at this input: nothing after it is read
                    batch.inputDone = true;
                    queue.put(batch, batch.bytes);
                    return;
                }
                batch.inputDone = true;
                queue.put(batch, batch.bytes);
            }
        } catch (InterruptedIOException e) {
            // closed: nobody is waiting
        }
    }

    private static void rethrow(Throwable t) throws IOException {
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error err) {
            throw err;
        }
        throw new UncheckedIOException(new IOException(t));
    }

    /** Stops the readers if the caller gave up early (an error elsewhere); never blocks for long. */
    @Override
    public void close() {
        closed = true;
        readers.forEach(Thread::interrupt);
        long deadline = System.nanoTime() + 10_000_000_000L;
        try {
            for (Thread t : readers) {
                while (t.isAlive() && System.nanoTime() < deadline) {
                    queues.forEach(WeightedQueue::clear); // a reader blocked on a full queue can then finish
                    t.join(50);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
    }
}
