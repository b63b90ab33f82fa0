package dev.ourios.table.ingest;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Groups a stream of rows into bounded per-partition batches. Rows are buffered per (tenant, hour); whenever the
 * buffered rows' footprint ({@link LogRecord#roughHeapBytes}) passes the budget, the largest partition's buffer is
 * handed out as a batch until it is back under. So memory stays at the budget plus the last rows added, whatever
 * the input's size, and the cut points depend only on the rows: the same input gives the same batches, which
 * content-named files need to make a re-run land nothing new.
 */
public final class IngestBatcher {
    /** The default budget: small enough for a modest heap, large enough that files are not tiny. */
    public static final long DEFAULT_BUDGET_BYTES = 16L << 20;

    private final long budget;
    private final Map<PartitionKey, Buffer> buffers = new TreeMap<>();
    private long buffered;

    public IngestBatcher(long budgetBytes) {
        if (budgetBytes <= 0) {
            throw new IllegalArgumentException("budget must be positive: " + budgetBytes);
        }
        this.budget = budgetBytes;
    }

    /** Adds rows; returns the batches to land now (possibly none), largest first. */
    public List<Batch> add(Collection<LogRecord> rows) {
        for (LogRecord r : rows) {
            long size = r.roughHeapBytes();
            buffers.computeIfAbsent(r.partitionKey(), k -> new Buffer()).add(r, size);
            buffered += size;
        }
        List<Batch> out = new ArrayList<>();
        while (buffered > budget) {
            // Largest first, ties by partition order, so the choice is a function of the rows alone.
            PartitionKey largest = buffers.entrySet().stream()
                    .max(Comparator.<Map.Entry<PartitionKey, Buffer>>comparingLong(e -> e.getValue().bytes)
                            .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
                    .orElseThrow().getKey();
            out.add(take(largest));
        }
        return out;
    }

    /** Everything still buffered, one batch per partition in partition order; the batcher is empty after. */
    public List<Batch> drain() {
        List<Batch> out = new ArrayList<>();
        for (PartitionKey p : List.copyOf(buffers.keySet())) {
            out.add(take(p));
        }
        return out;
    }

    /** Rows buffered and not yet handed out. */
    public long bufferedRows() {
        return buffers.values().stream().mapToLong(b -> b.rows.size()).sum();
    }

    private Batch take(PartitionKey p) {
        Buffer b = buffers.remove(p);
        buffered -= b.bytes;
        return new Batch(p, b.rows);
    }

    private static final class Buffer {
        final List<LogRecord> rows = new ArrayList<>();
        long bytes;

        void add(LogRecord r, long size) {
            rows.add(r);
            bytes += size;
        }
    }

    /** Rows of one partition to land as one file. */
    public record Batch(PartitionKey partition, List<LogRecord> rows) {
    }
}
