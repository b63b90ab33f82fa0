package dev.ourios.compaction;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.LogFileReader;
import dev.ourios.parquet.LogFileWriter;
import dev.ourios.parquet.ReadOptions;
import dev.ourios.parquet.WriterOptions;
import dev.ourios.store.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SortedMap;
import org.apache.parquet.schema.PrimitiveType;

/**
 * External merge sort of one partition's rows under a decoded-row budget B (RFC 0036 §3.2, STORAGE.md §5).
 *
 * <p>Run formation: rows are appended in (input ordinal, row ordinal) order; at the end of each input, if the
 * buffer's estimated footprint exceeds B, it is stably sorted and spilled to scratch as a Parquet run (ZSTD 1, no
 * dictionaries, no statistics). So the buffer holds at most B plus one input. Skip-spill: when nothing was
 * spilled, the buffer is sorted in place and streamed out. Merge: a k-way merge over the runs, ties broken by run
 * ordinal (runs are contiguous in input order, so this is the input-ordinal tie-break), at most {@code fanIn} runs
 * at once; beyond that, consecutive groups of {@code fanIn} runs merge into intermediate runs first. Every sort is
 * stable, so both paths emit the same sequence of rows and therefore the same bytes.
 *
 * <p>Merge memory: each open run is read one row group at a time, and runs are written with row groups of at most
 * {@code B / fanIn / widest row} rows (see {@link #batchRows}), so the open readers' batches together stay within
 * about B whatever the number of runs and however wide the rows.
 */
public final class ExternalSorter implements AutoCloseable {
    /** Smallest spill-run row group: below this, per-group overhead dominates. */
    static final long MIN_RUN_ROW_GROUP_BYTES = 64L << 10;

    private final long budgetBytes;
    private final int fanIn;
    private final Path scratch;
    private final LocalObjectStore scratchStore;
    private final SortedMap<String, PrimitiveType> extras;
    private final ResidencyGauge gauge;
    private final RowBuffer buffer = new RowBuffer();
    private final List<String> runs = new ArrayList<>();
    /** The widest row (estimated decoded bytes) of each run, which sizes that run's row groups. */
    private final java.util.Map<String, Long> widest = new java.util.HashMap<>();
    private long buffered;
    private long widestBuffered = 1;
    private int nextRun;
    private int rowsSpilled;

    public ExternalSorter(long budgetBytes, int fanIn, Path scratch, SortedMap<String, PrimitiveType> extras,
            ResidencyGauge gauge) {
        this.budgetBytes = budgetBytes;
        this.fanIn = fanIn;
        this.scratch = scratch;
        this.scratchStore = new LocalObjectStore(scratch);
        this.extras = extras;
        this.gauge = gauge;
    }

    /** Appends one row (already validated and re-projected) to the run buffer. */
    public void add(LogRecord r) {
        // What the merge will hold of this row once it is read back from a run: its object graph and sort entry.
        widestBuffered = Math.max(widestBuffered, SortEntry.of(r, RecordFootprint.estimate(r)).footprint());
        buffer.add(r);
        long now = buffer.footprint();
        gauge.add(now - buffered);
        buffered = now;
    }

    /** Marks the end of one input: the only place a run may be cut, so runs stay contiguous in input order. */
    public void endOfInput() throws IOException {
        if (buffered > budgetBytes) {
            spillBuffer();
        }
    }

    public int spilledRuns() {
        return nextRun;
    }

    public long rowsSpilled() {
        return rowsSpilled;
    }

    /** Streams every row in sort order to {@code sink}. */
    public void drainTo(RowSink sink) throws IOException {
        if (runs.isEmpty()) {
            for (int row : buffer.sortedOrder()) { // a stable sort: equal keys keep (input, row) order
                sink.accept(buffer.get(row));
            }
            release();
            return;
        }
        if (buffer.rows() > 0) {
            spillBuffer();
        }
        gauge.startMerge();
        long widestRow = widest.values().stream().mapToLong(Long::longValue).max().orElse(1);
        int fanIn = effectiveFanIn(budgetBytes, this.fanIn, widestRow);
        List<String> level = new ArrayList<>(runs);
        while (level.size() > fanIn) {
            List<String> next = new ArrayList<>();
            for (int i = 0; i < level.size(); i += fanIn) {
                List<String> group = level.subList(i, Math.min(level.size(), i + fanIn));
                if (group.size() == 1) {
                    next.add(group.get(0));
                    continue;
                }
                String merged = newRunName();
                long wide = group.stream().mapToLong(widest::get).max().orElse(1);
                widest.put(merged, wide);
                try (LogFileWriter w = runWriter(merged, wide)) {
                    merge(group, w::write);
                    w.commit();
                }
                for (String g : group) {
                    scratchStore.delete(g);
                }
                next.add(merged);
            }
            level = next;
        }
        merge(level, sink);
    }

    private void spillBuffer() throws IOException {
        int[] order = buffer.sortedOrder();
        String name = newRunName();
        // The run's widest row sizes its row groups, the merge's reader batches (see batchRows).
        long wide = widestBuffered;
        widest.put(name, wide);
        try (LogFileWriter w = runWriter(name, wide)) {
            for (int row : order) {
                w.write(buffer.get(row));
            }
            w.commit();
        }
        rowsSpilled += buffer.rows();
        runs.add(name);
        release();
    }

    private void release() {
        buffer.clear();
        widestBuffered = 1;
        gauge.release(buffered);
        buffered = 0;
    }

    private String newRunName() {
        return String.format("run-%06d.parquet", nextRun++);
    }

    /**
     * A run's row groups are the merge's reader batches: parquet-java holds one row group per open run. They are
     * sized from the run's widest row so that {@code fanIn} open batches together stay within the budget: at most
     * {@code B / fanIn / widest} rows, clamped to [1, 1024] rows, and at most {@code B / fanIn} bytes.
     */
    static int batchRows(long budgetBytes, int fanIn, long widestRowBytes) {
        fanIn = effectiveFanIn(budgetBytes, fanIn, widestRowBytes);
        long rows = budgetBytes / fanIn / Math.max(1, widestRowBytes);
        return (int) Math.max(1, Math.min(1024, rows));
    }

    /** Fewest rows a merge batch should hold; below it, per-row-group metadata outweighs the rows. */
    static final int MIN_BATCH_ROWS = 16;

    /**
     * The fan-in actually used: the configured one, reduced when rows are so wide that {@code fanIn} batches of
     * {@link #MIN_BATCH_ROWS} rows would not fit the budget. Each row group's footer metadata costs kilobytes of
     * heap per open run, so one-row batches over 64 runs would spend the budget on metadata; merging fewer runs at
     * a time (more levels) keeps both the batches and the footers bounded.
     */
    static int effectiveFanIn(long budgetBytes, int fanIn, long widestRowBytes) {
        long fit = budgetBytes / ((long) MIN_BATCH_ROWS * Math.max(1, widestRowBytes));
        return (int) Math.max(2, Math.min(fanIn, fit));
    }

    private LogFileWriter runWriter(String name, long widestRowBytes) throws IOException {
        long rowGroupBytes = Math.max(MIN_RUN_ROW_GROUP_BYTES, budgetBytes / fanIn);
        WriterOptions opts = WriterOptions.spill(rowGroupBytes).withDictionaries(false).withExtras(extras)
                .withRowGroupRows(batchRows(budgetBytes, fanIn, widestRowBytes));
        return new LogFileWriter(scratchStore.create(name), opts);
    }

    /** k-way merge; the priority queue breaks key ties by run ordinal, which preserves input order. */
    private void merge(List<String> runNames, RowSink sink) throws IOException {
        List<LogFileReader> readers = new ArrayList<>();
        PriorityQueue<Head> heads = new PriorityQueue<>(
                Comparator.<Head, SortEntry>comparing(h -> h.entry, SortEntry.ORDER).thenComparingInt(h -> h.run));
        try {
            for (int i = 0; i < runNames.size(); i++) {
                LogFileReader r = LogFileReader.open(scratchStore, runNames.get(i), ReadOptions.all());
                readers.add(r);
                advance(heads, r, i);
            }
            while (!heads.isEmpty()) {
                Head h = heads.poll();
                gauge.release(h.entry.footprint());
                sink.accept(h.entry.record());
                advance(heads, readers.get(h.run), h.run);
            }
        } finally {
            for (LogFileReader r : readers) {
                r.close();
            }
        }
    }

    private void advance(PriorityQueue<Head> heads, LogFileReader reader, int run) throws IOException {
        LogRecord r = reader.read();
        if (r != null) {
            SortEntry e = SortEntry.of(r, RecordFootprint.estimate(r));
            gauge.add(e.footprint());
            heads.add(new Head(e, run));
        }
    }

    private record Head(SortEntry entry, int run) {
    }

    /** Removes every run and the scratch directory. */
    @Override
    public void close() throws IOException {
        buffer.clear();
        try (var files = Files.list(scratch)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (java.nio.file.NoSuchFileException e) {
            return;
        }
        Files.deleteIfExists(scratch);
    }

    /** Receives rows in sort order. */
    @FunctionalInterface
    public interface RowSink {
        void accept(LogRecord r) throws IOException;
    }
}
