package dev.ourios.server.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.server.query.RecordJson;
import dev.ourios.core.LogRecord;
import dev.ourios.core.RowTime;
import dev.ourios.http.HttpRefusal;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.QueryStats;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a row query as a sequence of pages, so the rows a query holds at any moment are one page's, not the whole
 * limit's: each page is a scan with a small limit, resumed after the last row sent (a {@link QueryCursor}). Pages
 * start at {@link #FIRST_PAGE_ROWS} rows and are then sized to about {@link #PAGE_BYTES} of encoded rows. Rows go
 * to the client as each page completes ({@link RowSink}); the query stops at its limit, at
 * {@code http.max_response_bytes} of rows, at its deadline, or when a scan runs out of heap, and says which.
 *
 * <p>Each scan runs on the scan executor and holds the query's slot until it ends; the request waits for it at
 * most until the deadline, then interrupts it: the engine stops a scan at its next row once interrupted, and the
 * slot is free again only when it has.
 */
final class QueryPages {
    static final int FIRST_PAGE_ROWS = 64;
    static final int MAX_PAGE_ROWS = 4096;
    static final long PAGE_BYTES = 4L << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Why a response stops before the query's matches ran out. */
    enum Cut {
        LIMIT("limit"), MAX_ROWS("max_rows"), MAX_RESPONSE_BYTES("max_response_bytes"), QUERY_TIMEOUT("query_timeout"),
        MEMORY("memory");

        final String label;

        Cut(String label) {
            this.label = label;
        }
    }

    /** Where the rows go: opened before the first row, told how the query ended. */
    interface RowSink {
        void row(byte[] json) throws IOException;

        void end(Optional<Cut> cut, Optional<QueryCursor> next, QueryStats stats) throws IOException;
    }

    private final QueryEngine engine;
    private final ExecutorService scans;
    private final long maxResponseBytes;
    private final Duration timeout;

    QueryPages(QueryEngine engine, ExecutorService scans, long maxResponseBytes, Duration timeout) {
        this.engine = engine;
        this.scans = scans;
        this.maxResponseBytes = maxResponseBytes;
        this.timeout = timeout;
    }

    /** One page's rows (at most the rows asked for) and whether more rows follow them. */
    private record Page(List<LogRecord> rows, boolean more, QueryStats stats) {
    }

    /**
     * Streams the query's rows. {@code open} is called once, after the first page is in (so a failure or a
     * timeout before any row is still a clean error status), and returns the sink.
     *
     * @param limitIsCap the limit is {@code http.max_rows} (the request gave none, or that much), not the client's
     */
    void stream(Query query, boolean limitIsCap, Optional<QueryCursor> start, QuerySlots.Slot slot,
            SinkOpener open) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long remaining = query.limit().orElse(Long.MAX_VALUE);
        Optional<QueryCursor> cursor = start;
        int pageRows = FIRST_PAGE_ROWS;
        long bytes = 0;
        long sent = 0;
        long[] totals = new long[7];
        long begin = System.nanoTime();
        RowSink sink = null;
        Optional<Cut> cut = Optional.empty();
        while (remaining > 0) {
            int want = (int) Math.min(pageRows, remaining);
            Page page;
            try {
                page = page(query, cursor, want, slot, deadline);
            } catch (TimeoutException e) {
                if (sink == null) {
                    throw timedOut();
                }
                cut = Optional.of(Cut.QUERY_TIMEOUT);
                break;
            } catch (OutOfMemory e) {
                if (sink == null) {
                    throw e.refusal;
                }
                cut = Optional.of(Cut.MEMORY); // the rows sent are good: end the answer there, with a cursor
                break;
            }
            add(totals, page.stats());
            if (sink == null) {
                sink = open.open();
            }
            long pageBytes = 0;
            for (LogRecord r : page.rows()) {
                byte[] json = JSON.writeValueAsBytes(RecordJson.of(r));
                if (sent > 0 && bytes + json.length > maxResponseBytes) {
                    cut = Optional.of(Cut.MAX_RESPONSE_BYTES);
                    break;
                }
                sink.row(json);
                bytes += json.length;
                pageBytes += json.length;
                sent++;
                remaining--;
                cursor = Optional.of(after(cursor, RowTime.of(r)));
            }
            if (cut.isPresent() || !page.more()) {
                break;
            }
            if (remaining == 0) {
                cut = Optional.of(limitIsCap ? Cut.MAX_ROWS : Cut.LIMIT);
                break;
            }
            if (System.nanoTime() > deadline) {
                cut = Optional.of(Cut.QUERY_TIMEOUT);
                break;
            }
            long perRow = Math.max(1, pageBytes / Math.max(1, page.rows().size()));
            pageRows = (int) Math.max(FIRST_PAGE_ROWS, Math.min(MAX_PAGE_ROWS, PAGE_BYTES / perRow));
        }
        if (sink == null) {
            sink = open.open(); // a limit of 0
        }
        QueryStats stats = new QueryStats(totals[0], totals[1], totals[2], totals[3], totals[4], totals[5], sent,
                (System.nanoTime() - begin) / 1_000_000, totals[6]);
        sink.end(cut, cut.isPresent() ? cursor : Optional.empty(), stats);
    }

    /** Opens the response once the first page is in. */
    @FunctionalInterface
    interface SinkOpener {
        RowSink open() throws IOException;
    }

    /** Counts the matching rows, within the deadline (504 after it). */
    QueryStats count(Query query, QuerySlots.Slot slot) throws Exception {
        try {
            return await(() -> engine.count(query), slot, System.nanoTime() + timeout.toNanos());
        } catch (TimeoutException e) {
            throw timedOut();
        } catch (OutOfMemory e) {
            throw e.refusal;
        }
    }

    /**
     * Runs one whole scan (an aggregate: stats, fields) within the query deadline: 504 when it does not finish in
     * time (the scan is then interrupted and stops), 503 when it runs out of heap.
     */
    <T> T bounded(Callable<T> scan, QuerySlots.Slot slot) throws Exception {
        try {
            return await(scan, slot, System.nanoTime() + timeout.toNanos());
        } catch (TimeoutException e) {
            throw timedOut();
        } catch (OutOfMemory e) {
            throw e.refusal;
        }
    }

    private HttpRefusal timedOut() {
        String limit = timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + "s" : timeout.toMillis() + "ms";
        return new HttpRefusal(504, null, "the query did not finish within " + limit
                + " (http.query_timeout); narrow its time window or filters");
    }

    private static QueryCursor after(Optional<QueryCursor> previous, long time) {
        if (previous.isPresent() && previous.get().timeNanos() == time) {
            return new QueryCursor(time, previous.get().skip() + 1);
        }
        return new QueryCursor(time, 1);
    }

    private Page page(Query query, Optional<QueryCursor> cursor, int want, QuerySlots.Slot slot, long deadline)
            throws Exception {
        Query q = query;
        long skip = 0;
        if (cursor.isPresent()) {
            long t = cursor.get().timeNanos();
            skip = cursor.get().skip();
            try {
                q = query.order() == Query.Order.NEWEST_FIRST ? q.to(min(query.to(), t == Long.MAX_VALUE ? t : t + 1))
                        : q.from(max(query.from(), t));
            } catch (IllegalArgumentException e) {
                return new Page(List.of(), false, new QueryStats(0, 0, 0, 0, 0, 0, 0, 0)); // the window is spent
            }
        }
        long toSkip = skip;
        long skipTime = cursor.map(QueryCursor::timeNanos).orElse(0L);
        Query paged = q.limit(skip + want + 1);
        List<LogRecord> rows = new ArrayList<>(Math.min(want + 1, 1024));
        QueryStats stats = await(() -> engine.run(paged, new java.util.function.Consumer<>() {
            long skipping = toSkip;

            @Override
            public void accept(LogRecord r) {
                if (skipping > 0 && RowTime.of(r) == skipTime) {
                    skipping--; // sent in an earlier page
                    return;
                }
                skipping = 0;
                rows.add(r);
            }
        }), slot, deadline);
        boolean more = rows.size() > want;
        return new Page(more ? rows.subList(0, want) : rows, more, stats);
    }

    private <T> T await(Callable<T> scan, QuerySlots.Slot slot, long deadline) throws Exception {
        slot.hold();
        Future<T> f;
        try {
            f = scans.submit(() -> {
                try {
                    return scan.call();
                } finally {
                    slot.let();
                }
            });
        } catch (RuntimeException e) {
            slot.let();
            throw e;
        }
        try {
            return f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // The scan stops at its next check of the interrupt (the engine checks it between rows), so a query
            // never runs on past its deadline; the slot is let go when it has.
            f.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof Exception ex) {
                throw ex;
            }
            if (c instanceof OutOfMemoryError) {
                // A scan that did not fit (http.max_concurrent_queries set above what the heap holds): the scan's
                // objects are unreachable, the server goes on; the client may retry when fewer queries run.
                throw new OutOfMemory(new HttpRefusal(503, null, "the query did not fit in the server's memory "
                        + "beside the others running (http.max_concurrent_queries); retry shortly", 5));
            }
            throw (Error) c;
        }
    }

    /** A scan ran out of heap; {@link #refusal} is the answer when no row was sent yet. */
    private static final class OutOfMemory extends Exception {
        private static final long serialVersionUID = 1L;
        final HttpRefusal refusal;

        OutOfMemory(HttpRefusal refusal) {
            super(refusal.getMessage(), null, false, false);
            this.refusal = refusal;
        }
    }

    private static Instant min(Optional<Instant> bound, long nanos) {
        Instant t = Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
        return bound.isPresent() && bound.get().isBefore(t) ? bound.get() : t;
    }

    private static Instant max(Optional<Instant> bound, long nanos) {
        Instant t = Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
        return bound.isPresent() && bound.get().isAfter(t) ? bound.get() : t;
    }

    private static void add(long[] t, QueryStats s) {
        t[0] += s.partitions();
        t[1] += s.files();
        t[2] += s.rowGroupsTotal();
        t[3] += s.rowGroupsScanned();
        t[4] += s.rowGroupsPruned();
        t[5] += s.bytesRead();
        t[6] += s.rowGroupsIndexSkipped();
    }
}
