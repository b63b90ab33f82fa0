package dev.ourios.compaction.sort;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.rows.StringTable;
import dev.ourios.parquet.runs.RunCompressors;
import dev.ourios.parquet.runs.RunFileReader;
import dev.ourios.parquet.runs.RunFileWriter;
import dev.ourios.store.LocalObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * External merge sort of one partition's rows under a decoded-row budget B (RFC 0036 §3.2, STORAGE.md §5).
 *
 * <p>The sort key is (service, effective time, origin), the origin being the row's (input ordinal, row ordinal)
 * ({@link RowCodec#origin}), which is the contract's tie-break and is distinct for every row: the order is total,
 * so the rows may be added in any order (the input readers' batches arrive interleaved) and the output is the same.
 *
 * <p>Run formation: as soon as the buffer's footprint exceeds B, it is sorted and spilled to scratch as a Parquet
 * run (no dictionaries, no statistics; one column of encoded rows, see {@link RunFileWriter}). So the
 * buffer holds at most B plus one row. (RFC 0036 cuts runs only between whole inputs, which bounds the buffer by B
 * plus one input: an ingest file of 64 MiB decodes to ~250 MiB, no bound for a compaction meant to fit a 512 MiB
 * heap.)
 * A run is written on the compacting thread but published (fsynced and renamed) on a helper, so the next rows go
 * into the buffer while the disk catches up; the merge starts once every run is published, and a run that failed
 * to publish fails the sort at the next spill or before the merge.
 * Skip-spill: when nothing was spilled, the buffer is sorted in place and streamed out. Merge: a k-way merge over
 * the runs by the same key, at most {@code fanIn} runs at once; beyond that, consecutive groups of {@code fanIn}
 * runs merge into intermediate runs first. Which rows share a run does not matter to a total order, so both paths
 * emit the same sequence of rows and therefore the same bytes.
 *
 * <p>Merge memory: each open run is read one row group (batch) at a time into one {@code byte[]} per row, and runs
 * are written with row groups of at most {@code B / fanIn / widest row} rows (see {@link #batchRows}), so the open
 * batches together stay within B whatever the number of runs and however wide the rows; the residency gauge counts
 * every array of every open batch.
 *
 * <p>Rows stay in {@link RowCodec} form from the moment they are added until the writer shreds them: the sink
 * receives bytes, not records.
 *
 * <p>Scratch space: runs are written raw (UNCOMPRESSED, about five times the bytes of the compressed Parquet input
 * on OpenTelemetry-demo-shaped logs) while the raw runs of this sort fit in its raw allowance, a quarter of the
 * scratch volume's usable space when the sort starts; runs beyond it, and intermediate runs, are ZSTD-compressed
 * (level 1, incompressible stretches stored raw). Compressing and decompressing the runs costs about a sixth of a
 * spilling compaction's CPU (see docs/benchmarks.md), so disk is spent where there is plenty of it.
 */
public final class ExternalSorter implements AutoCloseable {
    /** Heap of one row read back from a run beyond its bytes: the array header and the batch list's slot. */
    static final int ROW_OVERHEAD = 16 + 8;
    /** Threads compressing a run's row groups while the compacting thread fills the next ones. */
    static final int SPILL_COMPRESSORS = 2;

    private final long budgetBytes;
    private final int fanIn;
    private final Path scratch;
    private final LocalObjectStore scratchStore;
    private final ResidencyGauge gauge;
    /** Each run's string table is capped at this, so the merge's open tables together stay within B / 2. */
    private final long tableCapBytes;
    /** What the merge's reader batches may hold together: B less the open runs' tables. */
    private final long batchBudgetBytes;
    private final RowBuffer buffer;
    private final RowCodec.Output inlined = new RowCodec.Output(4096);
    /** Compress run row groups on both cores while a spill holds up run formation (threads start at first use). */
    private final RunCompressors compressors = new RunCompressors(SPILL_COMPRESSORS, "ourios-spill-zstd");
    private final List<String> runs = new ArrayList<>();
    /**
     * Formation runs being published (synced and renamed) on {@link #publisher}, oldest first. A spill stops the
     * input readers (their queue fills while the compacting thread sorts and writes the run), and the run file's
     * fsync would be the largest part of that pause; the run's rows are in the file before it is synced, so the
     * buffer is free for the next rows at once, and only the merge needs the runs published.
     */
    private final ArrayDeque<Future<?>> publishing = new ArrayDeque<>();
    private ExecutorService publisher;
    /** The widest row (its bytes plus {@link #ROW_OVERHEAD}) of each run, which sizes that run's batches. */
    private final Map<String, Long> widest = new HashMap<>();
    private long buffered;
    private long widestBuffered = 1;
    private int nextRun;
    private int rowsSpilled;
    /** Bytes of raw runs this sort may write (see the class comment), and what it has written. */
    private final long rawAllowanceBytes;
    private long rawBytesWritten;
    private int rawRuns;

    /** The fraction of the scratch volume's usable space one sort may fill with raw runs. */
    static final int RAW_ALLOWANCE_DIVISOR = 4;

    public ExternalSorter(long budgetBytes, int fanIn, Path scratch, ResidencyGauge gauge) throws IOException {
        this(budgetBytes, fanIn, scratch, gauge,
                Files.getFileStore(scratch).getUsableSpace() / RAW_ALLOWANCE_DIVISOR);
    }

    /** With an explicit raw-run allowance (tests: 0 compresses every run, Long.MAX_VALUE none). */
    ExternalSorter(long budgetBytes, int fanIn, Path scratch, ResidencyGauge gauge, long rawAllowanceBytes) {
        this.rawAllowanceBytes = rawAllowanceBytes;
        this.budgetBytes = budgetBytes;
        this.fanIn = fanIn;
        this.scratch = scratch;
        this.scratchStore = new LocalObjectStore(scratch);
        this.gauge = gauge;
        this.tableCapBytes = budgetBytes / 2 / fanIn;
        this.batchBudgetBytes = budgetBytes - tableCapBytes * fanIn;
        this.buffer = new RowBuffer(tableCapBytes);
    }

    /**
     * Appends one row (already validated and re-projected) whose place in the partition is {@code origin}
     * ({@link RowCodec#origin}) to the run buffer, and spills the buffer as a run once it holds more than B. Returns
     * the row's encoded length.
     */
    public int add(LogRecord r, long origin) throws IOException {
        makeRoomForKeys();
        return added(buffer.add(r, origin));
    }

    /**
     * Appends one encoded row (already validated and re-projected, its origin included) whose references are to
     * {@code strings}, as {@link #add(LogRecord, long)} does.
     */
    int add(byte[] buf, int offset, ReaderTableMirror strings) throws IOException {
        makeRoomForKeys();
        return added(buffer.add(buf, offset, strings));
    }

    /**
     * Appends every row the input readers hand over ({@link PrefetchedInputs#forEachEncoded}), as
     * {@link #add(byte[], int, ReaderTableMirror)} does.
     */
    public void addAll(PrefetchedInputs inputs) throws IOException {
        inputs.forEachEncoded(this::add);
    }

    /**
     * Spills before a row whose add would double the buffer's key arrays past B: that growth alone can exceed a row
     * (narrow rows reach thousands of slots below B), and the bound is B plus one row.
     */
    private void makeRoomForKeys() throws IOException {
        if (buffer.rows() > 0 && buffered + buffer.keyGrowthBytes() > budgetBytes) {
            spillBuffer();
        }
    }

    private int added(int bytes) throws IOException {
        widestBuffered = Math.max(widestBuffered, bytes + ROW_OVERHEAD);
        long now = buffer.footprint();
        gauge.add(now - buffered);
        buffered = now;
        if (buffered > budgetBytes) {
            spillBuffer();
        }
        return bytes;
    }

    public int spilledRuns() {
        return nextRun;
    }

    public long rowsSpilled() {
        return rowsSpilled;
    }

    /** Runs written raw (UNCOMPRESSED) so far. */
    int rawRuns() {
        return rawRuns;
    }

    /** Streams every row in sort order to {@code sink}. */
    public void drainTo(RowSink sink) throws IOException {
        if (runs.isEmpty()) {
            // The sink may hand rows to another thread that reads them after release(): give it a table that
            // release() does not clear (pages are dropped, never rewritten, so the rows' bytes stay as they are).
            StringTable table = buffer.view();
            for (int row : buffer.sortedOrder()) {
                sink.accept(buffer.page(row), buffer.offset(row), buffer.length(row), table);
            }
            release();
            return;
        }
        if (buffer.rows() > 0) {
            spillBuffer();
        }
        awaitPublished();
        gauge.startMerge();
        long widestRow = widest.values().stream().mapToLong(Long::longValue).max().orElse(1);
        int fanIn = effectiveFanIn(batchBudgetBytes, this.fanIn, widestRow);
        List<String> level = new ArrayList<>(runs);
        while (level.size() > fanIn) {
            List<String> next = new ArrayList<>();
            for (int i = 0; i < level.size(); i += fanIn) {
                List<String> group = level.subList(i, Math.min(level.size(), i + fanIn));
                if (group.size() == 1) {
                    next.add(group.get(0));
                    continue;
                }
                // An intermediate run mixes rows of runs with different tables: its rows are inlined and it has no
                // table. Inlining can widen rows, so its row groups are also cut by bytes (see runWriter).
                String merged = newRunName();
                long wide = group.stream().mapToLong(widest::get).max().orElse(1);
                long[] widestWritten = {1};
                try (RunFileWriter w = runWriter(merged, wide, List.of(), true)) {
                    merge(group, (buf, off, length, strings) -> {
                        inlined.reset();
                        int len = RowCodec.inline(buf, off, strings, inlined);
                        widestWritten[0] = Math.max(widestWritten[0], len + ROW_OVERHEAD);
                        w.write(inlined.array(), 0, len);
                    });
                    w.commit();
                }
                widest.put(merged, widestWritten[0]);
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
        throwPublishFailures();
        int[] order = buffer.sortedOrder();
        String name = newRunName();
        // The run's widest row sizes its row groups, the merge's reader batches (see batchRows).
        long wide = widestBuffered;
        widest.put(name, wide);
        // The buffer's footprint bounds the raw run's bytes (its rows plus a length each, and the table).
        boolean raw = rawBytesWritten + buffered <= rawAllowanceBytes;
        RunFileWriter w = runWriter(name, wide, buffer.table(), !raw);
        try {
            for (int row : order) {
                w.write(buffer.page(row), buffer.offset(row), buffer.length(row)); // rows keep their references
            }
            w.finish();
        } catch (IOException | RuntimeException e) {
            w.abort();
            throw e;
        }
        publishing.add(publisher().submit(() -> {
            w.publish();
            return null;
        }));
        if (raw) {
            rawRuns++;
            rawBytesWritten += buffered;
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

    private ExecutorService publisher() {
        if (publisher == null) {
            publisher = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "ourios-run-publisher");
                t.setDaemon(true);
                return t;
            });
        }
        return publisher;
    }

    /** Throws the failure of a run published since the last spill, if any, without waiting for the others. */
    private void throwPublishFailures() throws IOException {
        while (!publishing.isEmpty() && publishing.peek().isDone()) {
            awaitOldestPublish();
        }
    }

    private void awaitOldestPublish() throws IOException {
        try {
            publishing.poll().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a sort run to be published");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io
                    : new IOException("could not publish a sort run: " + e.getCause(), e.getCause());
        }
    }

    /** Waits until every formation run is published; the first failure is thrown (after all have ended). */
    private void awaitPublished() throws IOException {
        IOException failure = null;
        while (!publishing.isEmpty()) {
            try {
                awaitOldestPublish();
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private String newRunName() {
        return String.format("run-%06d.parquet", nextRun++);
    }

    /**
     * A run's row groups are the merge's reader batches. They are sized from the run's widest row so that
     * {@code fanIn} open batches together stay within the batch budget: at most {@code budget / fanIn / widest}
     * rows, clamped to [1, 1024] rows.
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
     * {@link #MIN_BATCH_ROWS} rows would not fit the budget. Each row group's footer metadata costs heap per open
     * run, so one-row batches over 64 runs would spend the budget on metadata; merging fewer runs at a time (more
     * levels) keeps both the batches and the footers bounded.
     */
    static int effectiveFanIn(long budgetBytes, int fanIn, long widestRowBytes) {
        long fit = budgetBytes / ((long) MIN_BATCH_ROWS * Math.max(1, widestRowBytes));
        return (int) Math.max(2, Math.min(fanIn, fit));
    }

    /**
     * Row groups of at most {@link #batchRows} rows, and cut once they hold {@code batch budget / fan-in} bytes (a
     * second bound, for intermediate runs whose inlined rows may be wider than their sources' widest).
     */
    private RunFileWriter runWriter(String name, long widestRowBytes, List<byte[]> table, boolean compression)
            throws IOException {
        int effective = effectiveFanIn(batchBudgetBytes, fanIn, widestRowBytes);
        long rowGroupBytes = Math.max(1, batchBudgetBytes / effective);
        return new RunFileWriter(scratchStore.create(name), batchRows(batchBudgetBytes, fanIn, widestRowBytes),
                rowGroupBytes, table, compressors, compression);
    }

    /** k-way merge by (service, time, origin). */
    private void merge(List<String> runNames, RowSink sink) throws IOException {
        List<RunCursor> cursors = new ArrayList<>();
        PriorityQueue<RunCursor> heads = new PriorityQueue<>(runNames.size(), ExternalSorter::compareHeads);
        try {
            for (int i = 0; i < runNames.size(); i++) {
                RunCursor c = new RunCursor(RunFileReader.open(scratchStore, runNames.get(i)), gauge);
                cursors.add(c);
                if (c.advance(gauge)) {
                    heads.add(c);
                }
            }
            while (!heads.isEmpty()) {
                RunCursor c = heads.poll();
                sink.accept(c.row, 0, c.row.length, c.strings);
                if (c.advance(gauge)) {
                    heads.add(c);
                }
            }
        } finally {
            for (RunCursor c : cursors) {
                c.close(gauge);
            }
        }
    }

    /** Sort key order of two heads: service by UTF-8 bytes (null first), effective time, origin. */
    private static int compareHeads(RunCursor a, RunCursor b) {
        int c;
        if (a.service == null || b.service == null) {
            c = Integer.compare(a.service == null ? 0 : 1, b.service == null ? 0 : 1);
        } else {
            c = Arrays.compareUnsigned(a.service, a.serviceOffset, a.serviceOffset + a.serviceLength, b.service,
                    b.serviceOffset, b.serviceOffset + b.serviceLength);
        }
        if (c == 0) {
            c = Long.compare(a.time, b.time);
        }
        return c != 0 ? c : Long.compare(a.origin, b.origin);
    }

    /** One open run in the merge: its current batch and head row with the head's sort key decoded. */
    private static final class RunCursor {
        private final RunFileReader reader;
        final StringTable strings;
        private final long stringsBytes;
        private List<byte[]> batch = List.of();
        private long batchBytes;
        private int next;
        byte[] row;
        /** The head's service: {@code service[serviceOffset, + serviceLength)}, or null. */
        byte[] service;
        int serviceOffset;
        int serviceLength;
        long time;
        long origin;

        RunCursor(RunFileReader reader, ResidencyGauge gauge) {
            this.reader = reader;
            this.strings = reader.strings();
            this.stringsBytes = reader.stringsBytes();
            gauge.add(stringsBytes);
        }

        /** Moves to the next row, loading the next batch when this one is used up; false at the end. */
        boolean advance(ResidencyGauge gauge) throws IOException {
            if (next == batch.size()) {
                gauge.release(batchBytes);
                batchBytes = 0;
                batch = reader.nextBatch();
                next = 0;
                if (batch == null) {
                    batch = List.of();
                    row = null;
                    return false;
                }
                for (byte[] b : batch) {
                    batchBytes += b.length + ROW_OVERHEAD;
                }
                gauge.add(batchBytes);
            }
            row = batch.get(next);
            batch.set(next++, null); // the sink may keep the row; the batch need not
            int n = (row[0] & 0xFF) | (row[1] & 0xFF) << 8 | (row[2] & 0xFF) << 16 | (row[3] & 0xFF) << 24;
            if (n >= 0) { // inline (RowCodec's layout: the prefix is the service, the effective time, the origin)
                service = row;
                serviceOffset = 4;
                serviceLength = n;
            } else if (n == -1) {
                service = null;
            } else {
                service = strings.utf8(-2 - n);
                serviceOffset = 0;
                serviceLength = service.length;
            }
            int t = 4 + Math.max(0, n);
            long lo = (row[t] & 0xFF) | (row[t + 1] & 0xFF) << 8 | (row[t + 2] & 0xFF) << 16
                    | (long) (row[t + 3] & 0xFF) << 24;
            long hi = (row[t + 4] & 0xFF) | (row[t + 5] & 0xFF) << 8 | (row[t + 6] & 0xFF) << 16
                    | (long) (row[t + 7] & 0xFF) << 24;
            time = (lo & 0xFFFF_FFFFL) | hi << 32;
            origin = RowCodec.originOf(row, 0);
            return true;
        }

        void close(ResidencyGauge gauge) throws IOException {
            gauge.release(batchBytes + stringsBytes);
            batchBytes = 0;
            reader.close();
        }
    }

    /** Removes every run and the scratch directory. */
    @Override
    public void close() throws IOException {
        if (publisher != null) {
            publisher.shutdown();
            try {
                awaitPublished(); // nothing may rename a run into the directory while it is removed
            } catch (IOException e) {
                // the sort failed already (or is abandoned): the runs are removed below either way
            } finally {
                publisher.shutdownNow();
            }
        }
        compressors.close();
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

    /**
     * Receives rows in sort order, as {@link RowCodec} rows of {@code length} bytes at {@code buf[offset..]}.
     * The sorter never writes into a row's bytes or its table after emitting it, so a sink may keep them (and hand
     * them to another thread) without copying.
     */
    @FunctionalInterface
    public interface RowSink {
        void accept(byte[] buf, int offset, int length, StringTable strings) throws IOException;
    }
}
