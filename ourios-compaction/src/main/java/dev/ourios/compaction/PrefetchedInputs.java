package dev.ourios.compaction;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.LogFileReader;
import dev.ourios.parquet.ReadOptions;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.MessageType;

/**
 * Reads a plan's inputs on a helper thread, in plan order, through the reader contract (row-vs-path validation
 * included) and re-projects every row, handing the compacting thread batches of (source row, re-projected row).
 * Decoding Parquet into records was ~13 % of a compaction and the re-projection a few more, all on the compacting
 * thread while the other core idled during run formation.
 *
 * <p>Order is kept (one reader thread, inputs in plan order, rows in file order), so the sort sees exactly the
 * sequence it saw before, and the output bytes do not change. An input's failure (unreadable, foreign schema, a row
 * in the wrong partition) reaches the caller as the same exception, after the rows read before it. What waits in the
 * queue is bounded by {@link #QUEUE_BYTES} (or one batch, if a row is larger); that bound is outside the sort
 * budget, like the checksum helpers' (docs/architecture.md, heap planning).
 */
final class PrefetchedInputs implements AutoCloseable {
    static final long QUEUE_BYTES = 4L << 20;
    private static final int BATCH_ROWS = 1024;
    private static final long BATCH_BYTES = 1L << 20;

    /** Receives each row: as read (for the read-side checksum) and re-projected (for the sort or the writer). */
    @FunctionalInterface
    interface RowHandler {
        void accept(LogRecord source, LogRecord projected) throws IOException;
    }

    private final WeightedQueue<Batch> queue = new WeightedQueue<>(QUEUE_BYTES);
    /** Each input's file schema, in plan order; complete (and safely published) once forEach has returned. */
    private final List<MessageType> schemas = new ArrayList<>();
    private final Thread reader;
    private volatile boolean closed;

    PrefetchedInputs(ObjectStore store, CompactionPlan plan, String threadName) {
        this.reader = new Thread(() -> readAll(store, plan), threadName);
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /** Hands every row of every input to {@code handler}, in order; rethrows the first input's failure. */
    void forEach(RowHandler handler) throws IOException {
        while (true) {
            Batch b = queue.take();
            for (int i = 0; i < b.sources.size(); i++) {
                handler.accept(b.sources.get(i), b.projected.get(i));
            }
            if (b.failure != null) {
                rethrow(b.failure);
            }
            if (b.last) {
                return;
            }
        }
    }

    /**
     * The inputs' file schemas in plan order (for the output's union schema, without opening every input again);
     * call after {@link #forEach} returned normally.
     */
    List<MessageType> fileSchemas() {
        return List.copyOf(schemas);
    }

    private void readAll(ObjectStore store, CompactionPlan plan) {
        ServiceNameProjector projector = new ServiceNameProjector();
        Batch batch = new Batch();
        try {
            for (ObjectInfo input : plan.inputs()) {
                try (LogFileReader r = LogFileReader.open(store, input.key(),
                        ReadOptions.partition(plan.partition()))) {
                    schemas.add(r.fileSchema());
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
                }
            }
            batch.last = true;
        } catch (InterruptedIOException e) {
            return; // closed: nobody is waiting
        } catch (IOException | RuntimeException | Error e) {
            batch.failure = e;
            batch.last = true;
        }
        try {
            queue.put(batch, batch.bytes);
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

    /** Stops the reader if the caller gave up early (an error elsewhere); never blocks for long. */
    @Override
    public void close() {
        closed = true;
        reader.interrupt();
        long deadline = System.nanoTime() + 10_000_000_000L;
        try {
            while (reader.isAlive() && System.nanoTime() < deadline) {
                queue.clear(); // a reader blocked on a full queue can then put its last batch and end
                reader.join(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class Batch {
        final List<LogRecord> sources = new ArrayList<>();
        final List<LogRecord> projected = new ArrayList<>();
        long bytes;
        boolean last;
        Throwable failure;

        void add(LogRecord source, LogRecord projectedRow) {
            sources.add(source);
            projected.add(projectedRow);
            bytes += source.roughHeapBytes();
        }
    }
}
