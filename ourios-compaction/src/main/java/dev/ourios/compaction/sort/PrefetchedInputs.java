package dev.ourios.compaction.sort;

import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.DayScope;
import dev.ourios.compaction.share.Shares;
import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.Failures;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.parquet.schema.MessageType;

/**
 * Reads a plan's inputs on helper threads through the reader contract (row-vs-path validation included) and
 * re-projects every row, handing the compacting thread batches of encoded rows. On the compacting thread, decoding
 * Parquet and re-projecting the rows would be the longest part of run formation, the writer's work being spread over
 * two cores.
 *
 * <p>With {@code readers} threads, reader {@code k} reads inputs {@code k, k + readers, …} in order into one shared
 * queue, and the caller takes batches as they come: each input's rows arrive in row order, but the inputs'
 * batches interleave as the readers produce them. (Taking input 0's rows, then input 1's, … would keep the other
 * reader waiting on a full queue most of the time.) Every row carries its origin (input
 * ordinal, row ordinal, {@link RowCodec#origin}), the sort's tie-break, so the arrival order does not reach the
 * output. An input's failure (unreadable, foreign schema, a row in the wrong partition) reaches the caller as the
 * same exception once every input before it has been handed over; with several failing inputs, the first in plan
 * order is the one thrown. What waits in the queue is bounded by {@link #QUEUE_BYTES} (or one batch, if a row is
 * larger); that bound is outside the sort budget, like the checksum helper's (docs/architecture.md, heap planning).
 *
 * <p>Each reader encodes the re-projected rows straight from the pages ({@link LogFileReader#readProjected}) with
 * references into a string table of its own ({@link ReaderStringTable}, at most {@link #READER_TABLE_BYTES}, outside
 * the sort budget like the queue), whose new entries travel with the batch to the reader's
 * {@link ReaderTableMirror} on the compacting thread, which only copies each row into the run buffer. Building a
 * record per row, re-projecting it and encoding it on the compacting thread would be most of run formation's CPU.
 *
 * <p>With a checksum supplier, each reader also hashes the encoded rows it reads into a {@link RowChecksum} of its
 * own ({@link #readChecksum} adds them up): the read side of a compaction's row checksum, on the threads that
 * decode, rather than on the compacting thread that run formation waits for; it hashes the encoded rows, as the
 * write side does.
 *
 * <p>Internal to ourios-compaction: public only for the rewriter ({@code dev.ourios.compaction.SortedRewriter}),
 * which hands the rows to the sorter with {@link ExternalSorter#addAll}.
 */
public final class PrefetchedInputs implements AutoCloseable {
    /**
     * Reader threads a compaction uses: two, so decoding can use both cores while the compacting thread, which only
     * encodes and buffers rows during run formation, waits for them.
     */
    public static final int READERS = 2;
    static final long QUEUE_BYTES = 2L << 20;
    private static final int BATCH_ROWS = 1024;
    /**
     * An encoded batch's bytes: well under half of G1's smallest region (1 MiB), so its array is never a humongous
     * object; a longer row grows it.
     */
    private static final int ENCODED_BATCH_BYTES = 192 << 10;
    /** A reader's string table: far more than the distinct low-cardinality values of real logs. */
    static final long READER_TABLE_BYTES = 4L << 20;

    /** Receives each encoded row: {@code buf[offset]}, whose references are to {@code strings}. */
    @FunctionalInterface
    interface EncodedRowHandler {
        void accept(byte[] buf, int offset, ReaderTableMirror strings) throws IOException;
    }

    private final int inputs;
    /** Each reader's string table as the compacting thread knows it. */
    private final ReaderTableMirror[] mirrors;
    private final WeightedQueue<Batch> queue = new WeightedQueue<>(QUEUE_BYTES);
    private final List<Thread> readers = new ArrayList<>();
    /** Each input's file schema, by plan ordinal; each is set before its input's first batch is queued. */
    private final MessageType[] schemas;
    /** Each reader's checksum of the rows it read, or none. */
    private final List<RowChecksum> checksums = new ArrayList<>();
    /** Rows left out, per reader; each slot written by its reader only, read after the inputs are drained. */
    private final long[] excluded;
    private final Predicate<LogRecord> exclude;
    /** The rewrite's shares and the ones whose rows these readers keep (docs/spec/storage.md 4.14). */
    private final Shares shares;
    private final Shares.Group group;
    /** Per reader: rows of other shares, left out; and the rows kept of each share of the group. */
    private final long[] elsewhere;
    private final long[][] shareRows;
    /** A rollup's (the plan has a day): each reader's counts of the rows it hands over; empty otherwise. */
    private final List<HourServiceCounts> counts = new ArrayList<>();
    private volatile boolean closed;

    /** {@code checksum}: makes each reader's {@link RowChecksum} (see the class comment); null: no checksum. */
    public PrefetchedInputs(ObjectStore store, CompactionPlan plan, int readerThreads, String threadName,
            Supplier<RowChecksum> checksum) {
        this(store, plan, readerThreads, threadName, checksum, null);
    }

    /**
     * As above, leaving out every row {@code exclude} matches (a deletion): such a row is decoded from its encoding,
     * tested, counted in {@link #excludedRows} and neither hashed nor handed over, so the read checksum covers exactly
     * the rows kept. Null: every row is kept, and no row is decoded.
     */
    public PrefetchedInputs(ObjectStore store, CompactionPlan plan, int readerThreads, String threadName,
            Supplier<RowChecksum> checksum, Predicate<LogRecord> exclude) {
        this(store, plan, readerThreads, threadName, checksum, exclude, Shares.one(), Shares.one().groups(1).get(0));
    }

    /**
     * As above, keeping only the rows of {@code group}'s shares of {@code shares} (docs/spec/storage.md, "Shares of a
     * large rewrite"): a row of another share is counted in {@link #rowsElsewhere} and neither tested by the exclusion,
     * hashed nor handed over; the rows kept are counted by share ({@link #shareRows}).
     */
    public PrefetchedInputs(ObjectStore store, CompactionPlan plan, int readerThreads, String threadName,
            Supplier<RowChecksum> checksum, Predicate<LogRecord> exclude, Shares shares, Shares.Group group) {
        this.exclude = exclude;
        this.shares = shares;
        this.group = group;
        this.inputs = plan.inputs().size();
        this.schemas = new MessageType[inputs];
        int n = Math.max(1, Math.min(readerThreads, inputs));
        this.mirrors = new ReaderTableMirror[n];
        this.excluded = new long[n];
        this.elsewhere = new long[n];
        this.shareRows = new long[n][group.size()];
        for (int k = 0; k < n; k++) {
            int first = k;
            RowChecksum sum = checksum != null ? checksum.get() : null;
            if (sum != null) {
                checksums.add(sum);
            }
            HourServiceCounts tally = plan.day().map(d -> new HourServiceCounts(d.fromNanos())).orElse(null);
            if (tally != null) {
                counts.add(tally);
            }
            mirrors[k] = new ReaderTableMirror();
            Thread t = new Thread(() -> readEvery(store, plan, first, n, sum, tally), threadName + "-" + k);
            t.setDaemon(true);
            readers.add(t);
            t.start();
        }
    }

    /**
     * Hands every row of every input to {@code handler}, encoded with its origin, each input's in row order;
     * rethrows the failure of the first failing input (in plan order) once every input before it is done.
     */
    void forEachEncoded(EncodedRowHandler handler) throws IOException {
        drain(b -> {
            ReaderTableMirror strings = mirrors[b.reader];
            strings.append(b.entries);
            byte[] buf = b.encoded.array();
            for (int i = 0; i < b.rows; i++) {
                handler.accept(buf, b.offsets[i], strings);
            }
        });
    }

    private void drain(BatchHandler handler) throws IOException {
        boolean[] ended = new boolean[inputs];
        Throwable[] failures = new Throwable[inputs];
        int firstFailure = inputs;
        int firstOpen = 0; // every input before it has ended
        while (firstOpen < inputs && firstFailure >= firstOpen) {
            Batch b = queue.take();
            handler.accept(b);
            if (b.failure != null) {
                failures[b.input] = b.failure;
                firstFailure = Math.min(firstFailure, b.input);
            }
            if (b.inputDone) {
                ended[b.input] = true;
                while (firstOpen < inputs && ended[firstOpen]) {
                    firstOpen++;
                }
            }
        }
        if (firstFailure < inputs) {
            Failures.rethrow(failures[firstFailure]);
        }
    }

    @FunctionalInterface
    private interface BatchHandler {
        void accept(Batch b) throws IOException;
    }

    /**
     * The inputs' file schemas in plan order (for the output's union schema, without opening every input again);
     * call after {@link #forEachEncoded} returned normally.
     */
    public List<MessageType> fileSchemas() {
        return List.copyOf(Arrays.asList(schemas));
    }

    /**
     * The checksum of every row read, the readers' added up; call after {@link #forEachEncoded} returned normally (each
     * reader's last row was hashed before its last batch was queued, and that batch has been taken).
     */
    public RowChecksum readChecksum() {
        if (checksums.isEmpty()) {
            throw new IllegalStateException("BUG: the inputs were read without a checksum");
        }
        RowChecksum total = new RowChecksum();
        checksums.forEach(total::addAll);
        return total;
    }

    /**
     * A rollup's rows handed over, by hour of the day and service, the readers' added up (docs/spec/storage.md 4.15,
     * "Service counts"); empty when the plan is not a day's. Call after {@link #forEachEncoded} returned normally.
     */
    public Optional<HourServiceCounts> hourServiceCounts() {
        if (counts.isEmpty()) {
            return Optional.empty();
        }
        HourServiceCounts total = new HourServiceCounts(counts.get(0).dayStartNanos());
        counts.forEach(total::addAll);
        return Optional.of(total);
    }

    /** Rows of shares outside the group, left out; call after {@link #forEachEncoded} returned normally. */
    public long rowsElsewhere() {
        long n = 0;
        for (long e : elsewhere) {
            n += e;
        }
        return n;
    }

    /**
     * The rows kept (handed over) of each share of the group, in share order; call after {@link #forEachEncoded}
     * returned normally. With one share, its count is the read checksum's rows.
     */
    public long[] shareRows() {
        long[] total = new long[group.size()];
        for (long[] reader : shareRows) {
            for (int i = 0; i < total.length; i++) {
                total[i] += reader[i];
            }
        }
        return total;
    }

    /** Rows left out by the exclusion; call after {@link #forEachEncoded} returned normally. */
    public long excludedRows() {
        long n = 0;
        for (long e : excluded) {
            n += e;
        }
        return n;
    }

    /** Reader {@code first}'s share: inputs first, first + stride, … in order, each ended by a marked batch. */
    private void readEvery(ObjectStore store, CompactionPlan plan, int first, int stride, RowChecksum sum,
            HourServiceCounts tally) {
        UnaryOperator<String> serviceOf = new ServiceNameProjector()::serviceOf;
        ReaderStringTable table = new ReaderStringTable(READER_TABLE_BYTES);
        boolean split = shares.count() > 1;
        try {
            for (int input = first; input < inputs && !closed; input += stride) {
                Batch batch = new Batch(first, input, 0);
                ObjectInfo info = plan.inputs().get(input);
                DayScope dayFile = plan.day().filter(d -> d.isDayFile(info.key())).orElse(null);
                long row = -1;
                try (LogFileReader r = LogFileReader.open(store, info.key(),
                        plan.expectedPartition(info).map(ReadOptions::partition).orElse(ReadOptions.all()))) {
                    schemas[input] = r.fileSchema();
                    while (true) {
                        if (closed) {
                            return;
                        }
                        RowCodec.Output out = batch.encoded;
                        int at = out.size();
                        int weight = r.readProjected(RowCodec.origin(input, batch.firstRow + batch.rows), serviceOf,
                                table, out);
                        if (weight < 0) {
                            break;
                        }
                        row++;
                        if (dayFile != null && !carried(dayFile, info, row, RowCodec.decode(out.array(), at, table))) {
                            out.truncate(at); // a dead row: not read, not counted (its hour's own files hold it)
                            continue;
                        }
                        int share = split ? shares.shareOf(RowCodec.serviceOf(out.array(), at, table),
                                RowCodec.effectiveTimeOf(out.array(), at)) : 0;
                        if (!group.holds(share)) {
                            out.truncate(at); // another worker's row
                            elsewhere[first]++;
                            continue;
                        }
                        if (exclude != null && exclude.test(RowCodec.decode(out.array(), at, table))) {
                            out.truncate(at);
                            excluded[first]++;
                            continue;
                        }
                        shareRows[first][share - group.from()]++;
                        if (sum != null) {
                            sum.add(out.array(), at, table);
                        }
                        if (tally != null) {
                            tally.add(RowCodec.effectiveTimeOf(out.array(), at),
                                    RowCodec.serviceOf(out.array(), at, table));
                        }
                        batch.addEncoded(at);
                        if (batch.full()) {
                            put(batch, table);
                            batch = new Batch(first, input, batch.firstRow + batch.rows);
                        }
                    }
                } catch (InterruptedIOException e) {
                    return; // closed: nobody is waiting
                } catch (IOException | RuntimeException | Error e) {
                    batch.failure = e; // this reader stops at this input: nothing after it is read
                    batch.inputDone = true;
                    put(batch, table);
                    return;
                }
                batch.inputDone = true;
                put(batch, table);
            }
        } catch (InterruptedIOException e) {
            // closed: nobody is waiting
        }
    }

    /**
     * A day file's row (docs/spec/storage.md, "Rollup: small hours into day files"): checked against the tenant and the
     * day as an hour's rows are against their hour (a row outside them fails the rollup, naming the file and the row),
     * and carried only when its hour is validly covered; the others are dead rows, which their hours' own files hold,
     * left out as if not there (neither read nor excluded rows).
     */
    private static boolean carried(DayScope day, ObjectInfo file, long row, LogRecord r) throws IOException {
        long time = r.effectiveTime();
        if (!day.holds(r.tenantId(), time)) {
            throw new IOException(file.key() + ": row " + row + " belongs to tenant '" + r.tenantId()
                    + "' at effective time " + time + " ns, outside the day partition's tenant and day");
        }
        return day.carries(time);
    }

    /** Queues {@code batch} with the reader table's entries its rows may be the first to reference. */
    private void put(Batch batch, ReaderStringTable table) throws InterruptedIOException {
        batch.entries = table.takeNew();
        queue.put(batch, batch.bytes);
    }

    /** Stops the readers if the caller gave up early (an error elsewhere); never blocks for long. */
    @Override
    public void close() {
        closed = true;
        queue.stopProducers(readers);
    }

    private static final class Batch {
        /** The reader (its first input) that read it. */
        final int reader;
        final int input;
        /** The row ordinal (in its input) of the batch's first row. */
        final long firstRow;
        int rows;
        /** The rows, where each starts, and the reader table's entries new with this batch. */
        final RowCodec.Output encoded = new RowCodec.Output(ENCODED_BATCH_BYTES + (16 << 10));
        int[] offsets = new int[BATCH_ROWS];
        ReaderStringTable.Entries entries = ReaderStringTable.Entries.NONE;
        long bytes;
        boolean inputDone;
        Throwable failure;

        Batch(int reader, int input, long firstRow) {
            this.reader = reader;
            this.input = input;
            this.firstRow = firstRow;
        }

        void addEncoded(int offset) {
            if (rows == offsets.length) {
                offsets = Arrays.copyOf(offsets, rows * 2);
            }
            offsets[rows++] = offset;
            bytes = 16 + encoded.array().length + 4L * offsets.length;
        }

        boolean full() {
            return rows >= BATCH_ROWS || encoded.size() >= ENCODED_BATCH_BYTES;
        }
    }
}
