package dev.ourios.query;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.read.FooterCache;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs log queries over the live set (STORAGE.md §3) of one tenant.
 *
 * <p>Plan: list only the tenant's directory and only the hour partitions overlapping {@code [from, to)}; visit
 * them in the query's order (newest hour first for NEWEST_FIRST). Each partition is read whole (its live files
 * with row-group and page pruning), its matching rows sorted by effective time across files, and emitted; once
 * {@code limit} rows have been emitted from complete partitions no further partition is resolved. Hours never
 * overlap, so the concatenation of per-partition orders is the global order.
 *
 * <p>Each partition is read by up to {@code scanThreads} threads (files, and row groups of one file, shared out:
 * {@link PartitionScan}); the result does not depend on the count. The default is the machine's processor count,
 * at most {@link #MAX_DEFAULT_SCAN_THREADS}. A count or a visit of every row ({@link #visitEveryRow}), whose answer
 * does not depend on the order rows come in, reads as many partitions at once instead, each with one thread
 * ({@link PartitionPool}), when there are at least as many partitions as threads: a partition of one compacted file
 * is otherwise read by one thread alone.
 *
 * <p>An engine keeps the parsed footers of the files its queries open ({@link FooterCache}, by default
 * {@link FooterCache#DEFAULT_MAX_BYTES} of estimated heap): the next query over the same files neither fetches nor
 * parses them again.
 */
public final class QueryEngine {
    private static final Logger LOG = LoggerFactory.getLogger(QueryEngine.class);

    private final ObjectStore store;
    private final TableLayout layout;
    private final TableReader tables;
    private final QueryMetrics metrics;
    private final ScanThreads scanThreads;
    /** The threads this engine's queries run their helpers on, kept between queries. */
    private final QueryThreads helperThreads = new QueryThreads();
    /** Parsed footers of the files queries opened: data files are immutable, so a footer is read once. */
    private final FooterCache footers;

    /**
     * Days planned at once on a remote store: planning waits on round trips, not the CPU, so more days than the
     * machine has cores overlap their waits.
     */
    static final int REMOTE_PLANNING_THREADS = 8;

    /** A query reads with at most this many threads unless told otherwise. */
    public static final int MAX_DEFAULT_SCAN_THREADS = 4;

    public QueryEngine(ObjectStore store, TableLayout layout, TableReader tables, MeterProvider meterProvider) {
        this(store, layout, tables, meterProvider, defaultScanThreads());
    }

    public QueryEngine(ObjectStore store, TableLayout layout, TableReader tables, MeterProvider meterProvider,
            int scanThreads) {
        this(store, layout, tables, meterProvider, new FooterCache(FooterCache.DEFAULT_MAX_BYTES),
                ScanThreads.of(scanThreads));
    }

    /** An engine whose readers keep parsed footers in {@code footers} (shared by its queries and their threads). */
    public QueryEngine(ObjectStore store, TableLayout layout, TableReader tables, MeterProvider meterProvider,
            FooterCache footers) {
        this(store, layout, tables, meterProvider, footers, ScanThreads.of(defaultScanThreads()));
    }

    /**
     * The engine with every setting: its footer cache, and how many threads read a partition and how much of a file
     * must be left for two of them to share it ({@link ScanThreads}; the public constructors take the default).
     */
    QueryEngine(ObjectStore store, TableLayout layout, TableReader tables, MeterProvider meterProvider,
            FooterCache footers, ScanThreads scanThreads) {
        this.footers = Objects.requireNonNull(footers, "footers");
        this.scanThreads = scanThreads;
        this.store = Objects.requireNonNull(store, "store");
        this.layout = Objects.requireNonNull(layout, "layout");
        this.tables = Objects.requireNonNull(tables, "tables");
        this.metrics = new QueryMetrics(Objects.requireNonNull(meterProvider, "meterProvider"));
    }

    /** The helpers of this engine's queries running now (none once every query has returned). */
    int helpersRunning() {
        return helperThreads.running();
    }

    /** Streams the rows to {@code sink} in the query's order and returns what the query cost. */
    public QueryStats run(Query q, Consumer<LogRecord> sink) throws IOException {
        return measured(q, (scan, counters) -> {
            long remaining = q.limit().orElse(Long.MAX_VALUE);
            if (remaining == 0) {
                return;
            }
            for (PartitionKey p : plan(q)) {
                for (Hit h : scan.scan(p, remaining)) {
                    sink.accept(h.record());
                    counters.rows++;
                    remaining--;
                }
                if (remaining == 0) {
                    break;
                }
            }
        });
    }

    /**
     * Counts the tenant's rows matching {@code q} (its limit and order do not apply). Rows are decided on the query's
     * columns only, so no row is decoded whole unless the query has a body substring; every row the pruning leaves
     * is still checked for the tenant and the partition. The stats' {@code rows} is the count.
     */
    public QueryStats count(Query q) throws IOException {
        // Order does not matter: each day file is read once for its hours, and not at all for the hours its covers
        // count (storage.md 4.15, "Queries").
        DayReads days = new DayReads(CoverCounts.of(q));
        return measured(q, days, (scan, counters) -> {
            List<PartitionKey> partitions = plan(q);
            days.plan(partitions);
            prefetchOnRemote(days);
            if (!readsPartitionsAtOnce(partitions)) {
                for (PartitionKey p : partitions) {
                    counters.rows += scan.count(p);
                }
                return;
            }
            PartitionPool pool = new PartitionPool(dayClaimsFirst(partitions), scanThreads.threads(),
                    new java.util.concurrent.atomic.AtomicBoolean(), helperThreads);
            pool.run(c -> partitionScan(q, c, days), (one, tally, p) -> tally.rows += one.count(p), counters);
        });
    }

    /**
     * Hands every row matching {@code q} (its limit and order do not apply) to visitors made by {@code visitors},
     * one per scan thread and partition read, and passes each to {@code done} once its partition's read completed,
     * so an aggregate merged there counts each row once. Rows are decoded whole; nothing is kept by the engine. A
     * visitor returning false ends the visit early. The stats' {@code rows} is the number of rows visited.
     */
    public <V extends RowVisitor> QueryStats visit(Query q, java.util.function.Supplier<V> visitors,
            Consumer<V> done) throws IOException {
        return visit(q, Optional.empty(), visitors, done);
    }

    /**
     * As {@link #visit(Query, java.util.function.Supplier, Consumer)}, for visitors that read only {@code columns}
     * of a row (top-level column names): when the query has no condition on whole rows (no body substring, no row
     * filter) each matching row is handed over decoded on the query's columns and these alone (the others read as
     * absent), so nothing else of any row is decoded.
     */
    public <V extends RowVisitor> QueryStats visit(Query q, Optional<Set<String>> columns,
            java.util.function.Supplier<V> visitors, Consumer<V> done) throws IOException {
        return visit(q, columns, visitors, done, false);
    }

    /**
     * As {@link #visit(Query, Optional, java.util.function.Supplier, Consumer)}, for an aggregate over every matching
     * row whose visitors never end the visit early (a count over time): with at least as many partitions as threads
     * the partitions are read several at once ({@link PartitionPool}), in no particular order. A visitor that ends
     * the visit early would then have seen rows of any of the partitions being read: a bounded visit meant to see the
     * query's first partitions first takes {@link #visit(Query, Optional, java.util.function.Supplier, Consumer)}.
     */
    public <V extends RowVisitor> QueryStats visitEveryRow(Query q, Optional<Set<String>> columns,
            java.util.function.Supplier<V> visitors, Consumer<V> done) throws IOException {
        return visit(q, columns, visitors, done, true);
    }

    private <V extends RowVisitor> QueryStats visit(Query q, Optional<Set<String>> columns,
            java.util.function.Supplier<V> visitors, Consumer<V> done, boolean anyOrder) throws IOException {
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        // Every row in any order: each day file is read once for its hours; otherwise hour by hour, in order.
        DayReads days = anyOrder ? new DayReads() : null;
        return measured(q, days, (scan, counters) -> {
            List<PartitionKey> partitions = plan(q);
            if (days != null) {
                days.plan(partitions);
                prefetchOnRemote(days);
            }
            if (!anyOrder || !readsPartitionsAtOnce(partitions)) {
                for (PartitionKey p : partitions) {
                    PartitionScan.Visited<V> read = scan.visit(p, columns, visitors, stop);
                    read.visitors().forEach(done);
                    counters.rows += read.rows();
                    if (stop.get()) {
                        break;
                    }
                }
                return;
            }
            Object merging = new Object();
            PartitionPool pool = new PartitionPool(dayClaimsFirst(partitions), scanThreads.threads(), stop,
                    helperThreads);
            pool.run(c -> partitionScan(q, c, days), (one, tally, p) -> {
                PartitionScan.Visited<V> read = one.visit(p, columns, visitors, stop);
                synchronized (merging) { // done merges into one aggregate: one partition at a time
                    read.visitors().forEach(done);
                }
                tally.rows += read.rows();
            }, counters);
        });
    }

    /**
     * Whether a count or a visit of every row reads several partitions at once, each with one thread
     * ({@link PartitionPool}), rather than one partition after the other with every thread: when there are at least
     * as many partitions as threads. Either way at most {@code scanThreads} threads read, each one row group at a
     * time, so the memory a query holds is bounded alike; a partition of one compacted file is read by one thread
     * anyway, since a visit does not share a file's row groups between threads.
     */
    private boolean readsPartitionsAtOnce(List<PartitionKey> partitions) {
        return scanThreads.threads() > 1 && partitions.size() >= scanThreads.threads();
    }

    /**
     * On a remote store, plans the query's days ahead, {@link #REMOTE_PLANNING_THREADS} at once
     * ({@link DayReads#prefetch}); on a local one each scan plans a day when it reaches it.
     */
    private void prefetchOnRemote(DayReads days) throws IOException {
        if (store.isRemote()) {
            days.prefetch(tables, REMOTE_PLANNING_THREADS, helperThreads);
        }
    }

    /**
     * The partitions newest first, the order a {@link PartitionPool} takes them in: the latest hours, not compacted
     * yet, hold the most files, and starting the longest reads first leaves the short ones to fill in at the end.
     */
    private static List<PartitionKey> newestFirst(List<PartitionKey> partitions) {
        List<PartitionKey> sorted = new ArrayList<>(partitions);
        sorted.sort(java.util.Comparator.reverseOrder()); // one tenant's: by time
        return sorted;
    }

    /**
     * As {@link #newestFirst}, but each day's first hour ahead of every other hour: with {@link DayReads}, the first
     * hour of a day a worker takes claims the day and reads its day files for the day's covered hours, which then
     * read nothing. Taking one hour of each day first gives the workers different days to claim side by side, rather
     * than one worker waiting on the claim another is making of the same day, and the hours that read nothing fill
     * in at the end.
     */
    private static List<PartitionKey> dayClaimsFirst(List<PartitionKey> partitions) {
        java.util.Map<dev.ourios.table.DayPartition, PartitionKey> firstOfDay = new java.util.HashMap<>();
        for (PartitionKey p : partitions) {
            firstOfDay.merge(dev.ourios.table.DayPartition.of(p), p, (a, b) -> a.compareTo(b) <= 0 ? a : b);
        }
        java.util.Set<PartitionKey> firsts = new java.util.HashSet<>(firstOfDay.values());
        List<PartitionKey> sorted = newestFirst(partitions);
        List<PartitionKey> out = new ArrayList<>(sorted.size());
        for (PartitionKey p : sorted) {
            if (firsts.contains(p)) {
                out.add(p);
            }
        }
        for (PartitionKey p : sorted) {
            if (!firsts.contains(p)) {
                out.add(p);
            }
        }
        return out;
    }

    /** A scan of {@code q} by one thread, for one worker of a {@link PartitionPool}. */
    private PartitionScan partitionScan(Query q, ScanCounters counters, DayReads days) {
        return new PartitionScan(store, tables, footers, q, counters, new ScanThreads(1,
                scanThreads.minSharedBytes()), helperThreads, days);
    }

    @FunctionalInterface
    private interface ScanBody {
        void run(PartitionScan scan, ScanCounters counters) throws IOException;
    }

    /** Runs {@code body} over a fresh scan, timing it and recording the metrics of its success or failure. */
    private QueryStats measured(Query q, ScanBody body) throws IOException {
        return measured(q, null, body);
    }

    /** As above, the scans sharing {@code days} (null: none). */
    private QueryStats measured(Query q, DayReads days, ScanBody body) throws IOException {
        long start = System.nanoTime();
        ScanCounters counters = new ScanCounters();
        try {
            body.run(new PartitionScan(store, tables, footers, q, counters, scanThreads, helperThreads, days),
                    counters);
            long elapsed = System.nanoTime() - start;
            QueryStats stats = counters.stats(elapsed / 1_000_000);
            metrics.record(stats, elapsed);
            LOG.debug("{} -> {}", q, stats);
            return stats;
        } catch (IOException | RuntimeException e) {
            metrics.failed(e, counters.rowGroupsScanned, counters.rowGroupsTotal - counters.rowGroupsScanned,
                    System.nanoTime() - start);
            if (Thread.currentThread().isInterrupted() && !(e instanceof InterruptedIOException)) {
                // the caller gave up: a read cut short by the interrupt (a channel closed under it) says so
                InterruptedIOException cancelled = new InterruptedIOException("the query was cancelled");
                cancelled.initCause(e);
                throw cancelled;
            }
            throw e;
        }
    }

    /** The machine's processor count, at most {@link #MAX_DEFAULT_SCAN_THREADS}. */
    public static int defaultScanThreads() {
        return Math.max(1, Math.min(MAX_DEFAULT_SCAN_THREADS, Runtime.getRuntime().availableProcessors()));
    }

    /** Runs the query and collects its rows. */
    public QueryResult collect(Query q) throws IOException {
        List<LogRecord> rows = new ArrayList<>();
        QueryStats stats = run(q, rows::add);
        return new QueryResult(rows, stats);
    }

    /** The tenant's partitions overlapping the window, in visiting order. */
    private List<PartitionKey> plan(Query q) throws IOException {
        List<PartitionKey> partitions = new ArrayList<>(layout.partitions(
                new PartitionFilter(Optional.of(Set.of(q.tenant())), q.from(), q.to())));
        if (q.order() == Query.Order.NEWEST_FIRST) {
            Collections.reverse(partitions);
        }
        return partitions;
    }
}
