package dev.ourios.server.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.http.ErrorBody;
import dev.ourios.http.Exchange;
import dev.ourios.http.FailureLog;
import dev.ourios.http.HttpRefusal;
import dev.ourios.http.RequestGate;
import dev.ourios.http.Route;
import dev.ourios.query.LiveFiles;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.QueryStats;
import dev.ourios.security.EndpointScopes;
import dev.ourios.server.events.EventLog;
import dev.ourios.server.tail.TailHub;
import dev.ourios.server.http.HttpListener;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The HTTP endpoint of {@code ourios serve}: {@code POST /v1/query}, {@code GET /v1/files}, {@code POST /v1/delete}
 * ({@link DeleteEndpoint}), {@code POST /v1/stats}, {@code GET /v1/fields}, {@code GET /v1/fields/{name}/values}
 * ({@link AggregateEndpoints}), {@code GET /v1/tail} ({@link TailEndpoint}), {@code GET /healthz}, {@code GET /readyz}, on an {@link HttpListener}. Every response is JSON; every refusal is
 * {@code {"error":{"status","field","message","request_id"}}} naming the field, header or parameter at fault.
 *
 * <p>Memory: at most {@code http.max_concurrent_queries} queries run at once (429 beyond), each holding one page
 * of rows ({@link QueryPages}) and streaming them out, its response's rows capped at {@code http.max_response_bytes}.
 * The {@code /v1/*} routes pass the {@link RequestGate} first: it authorizes the request and decides its tenant.
 *
 * <p>Internal to ourios-server: public so that {@link dev.ourios.server.Server} can assemble it.
 */
public final class HttpApi {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final QueryApiSettings config;
    private final QueryEngine engine;
    private final LiveFiles files;
    private final StoreProbe probe;
    private final EventLog events;
    private final RequestGate gate;
    private final DeleteEndpoint deletes;
    private final QuerySlots slots;
    private final ExecutorService scans;
    private final QueryPages pages;
    private final AggregateEndpoints aggregates;
    private final TailEndpoint tails;
    private final TailHub hub;
    private HttpListener server;

    public HttpApi(QueryApiSettings config, QueryEngine engine, LiveFiles files, StoreProbe probe, EventLog events,
            RequestGate gate, DeleteEndpoint deletes, TailHub hub) {
        this.config = config;
        this.engine = engine;
        this.files = files;
        this.probe = probe;
        this.events = events;
        this.gate = gate;
        this.deletes = deletes;
        this.slots = new QuerySlots(config.maxConcurrentQueries());
        this.scans = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "ourios-query-scan");
            t.setDaemon(true);
            return t;
        });
        this.pages = new QueryPages(engine, scans, config.maxResponseBytes(), config.queryTimeout());
        this.aggregates = new AggregateEndpoints(engine, slots, pages);
        this.hub = hub;
        this.tails = new TailEndpoint(hub);
    }

    /**
     * Binds and starts serving its routes and {@code more} (the status endpoints and the UI); returns the bound address (the real port when 0 was configured).
     *
     * @throws dev.ourios.server.StartupException the address or the TLS files cannot be used
     */
    public InetSocketAddress start(List<Route> more) {
        List<Route> routes = new ArrayList<>(List.of(
                Route.gated("POST", "/v1/query", config.maxBodyBytes(), this::query),
                Route.gated("GET", "/v1/files", 0, this::files),
                Route.gated("POST", "/v1/delete", config.maxBodyBytes(), this::delete),
                Route.gated("POST", "/v1/stats", config.maxBodyBytes(), ex -> read(ex, aggregates::stats)),
                Route.gated("GET", "/v1/fields", 0, ex -> read(ex, aggregates::fields)),
                Route.gated("GET", EndpointScopes.FIELD_VALUES, 0, ex -> read(ex, aggregates::values)),
                Route.gated("GET", "/v1/tail", 0, this::tail),
                Route.open("GET", "/healthz", ex -> ex.sendJson(200, Map.of("status", "ok"))),
                Route.open("GET", "/readyz", this::ready)));
        routes.addAll(more);
        server = HttpListener.start(config.listenSetting(), config.listener(), routes, gate, ErrorBody.JSON,
                new FailureLog() {
                    @Override
                    public void failed(String requestId, String method, String path, Throwable error) {
                        Map<String, Object> a = new LinkedHashMap<>();
                        a.put("http.request.method", method);
                        a.put("url.path", path);
                        a.put("http.response.status_code", 500);
                        a.put("ourios.request_id", requestId);
                        a.put("exception.type", error.getClass().getName());
                        a.put("exception.message", String.valueOf(error.getMessage()));
                        StringWriter trace = new StringWriter();
                        error.printStackTrace(new PrintWriter(trace));
                        a.put("exception.stacktrace", trace.toString());
                        events.emit(EventLog.Severity.ERROR, "ourios.http.request.failed", "request " + requestId
                                + " failed: " + error, a);
                    }
                });
        return server.address();
    }

    /** Lets the requests in progress finish (at most {@code max}), then stops the server; live tails end first. */
    public void stop(Duration max) throws InterruptedException {
        hub.close();
        if (server != null) {
            server.stop(max);
        }
        scans.shutdown();
    }

    private void query(Exchange ex) throws Exception {
        try {
            answer(ex);
        } catch (HttpRefusal r) {
            events.info("ourios.http.request.refused", r.getMessage(), attributes(ex, r.status()));
            throw r;
        }
    }

    private void answer(Exchange ex) throws Exception {
        String tenant = ex.tenant();
        QueryRequest.Parsed request = QueryRequest.parseRequest(tenant, ex.body(), config.maxRows());
        readable();
        try (QuerySlots.Slot slot = slots.acquire()) {
            QueryStats st;
            Optional<QueryPages.Cut> cut;
            if (request.count()) {
                st = pages.count(request.query(), slot);
                Map<String, Object> response = new LinkedHashMap<>();
                response.put("count", st.rows());
                response.put("stats", JSON.readTree(st.toJson()).get("stats"));
                ex.sendJson(200, response);
                cut = Optional.empty();
            } else {
                StreamedRows[] rows = new StreamedRows[1];
                // opened only once the first page is in: a timeout or failure before it is still a JSON error
                pages.stream(request.query(), request.limitIsCap(), request.cursor(), slot,
                        () -> rows[0] = new StreamedRows(ex));
                st = rows[0].stats;
                cut = rows[0].cut;
            }
            Map<String, Object> a = attributes(ex, 200);
            a.put("ourios.tenant", tenant);
            a.put("ourios.query.rows", st.rows());
            a.put("ourios.query.row_groups.scanned", st.rowGroupsScanned());
            a.put("ourios.query.row_groups.pruned", st.rowGroupsPruned());
            a.put("ourios.query.bytes_read", st.bytesRead());
            cut.ifPresent(c -> a.put("ourios.query.truncated_by", c.label));
            events.info("ourios.query.served", "query served: " + st.rows() + " rows", a);
        }
    }

    /**
     * {@code {"rows":[…],"truncated":…,"truncated_by":…,"cursor":…,"stats":{…}}}, written as the rows come: the
     * status line and the first rows leave before the last page is read.
     */
    private static final class StreamedRows implements QueryPages.RowSink {
        private final OutputStream out;
        private boolean first = true;
        QueryStats stats;
        Optional<QueryPages.Cut> cut = Optional.empty();

        StreamedRows(Exchange ex) throws IOException {
            out = ex.stream(200, "application/json; charset=utf-8");
            out.write("{\"rows\":[".getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public void row(byte[] json) throws IOException {
            if (!first) {
                out.write(',');
            }
            first = false;
            out.write(json);
        }

        @Override
        public void end(Optional<QueryPages.Cut> how, Optional<QueryCursor> next, QueryStats st) throws IOException {
            this.stats = st;
            this.cut = how;
            StringBuilder tail = new StringBuilder("],\"truncated\":").append(how.isPresent());
            if (how.isPresent()) {
                tail.append(",\"truncated_by\":\"").append(how.get().label).append('"');
            }
            if (next.isPresent()) {
                tail.append(",\"cursor\":\"").append(next.get().encode()).append('"');
            }
            String statsJson = st.toJson();
            tail.append(',').append(statsJson, 1, statsJson.length());
            out.write(tail.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** A read that answers whole (stats, fields): the store must be readable; its cost is logged like a query's. */
    @FunctionalInterface
    private interface Read {
        QueryStats answer(Exchange ex) throws Exception;
    }

    private void read(Exchange ex, Read read) throws Exception {
        try {
            readable();
            QueryStats st = read.answer(ex);
            Map<String, Object> a = attributes(ex, 200);
            a.put("ourios.tenant", ex.tenant());
            a.put("ourios.query.rows", st.rows());
            a.put("ourios.query.row_groups.scanned", st.rowGroupsScanned());
            a.put("ourios.query.row_groups.pruned", st.rowGroupsPruned());
            a.put("ourios.query.bytes_read", st.bytesRead());
            events.info("ourios.query.served", ex.path() + " served over " + st.rows() + " rows", a);
        } catch (HttpRefusal r) {
            events.info("ourios.http.request.refused", r.getMessage(), attributes(ex, r.status()));
            throw r;
        }
    }

    private void tail(Exchange ex) throws Exception {
        try {
            long sent = tails.tail(ex);
            Map<String, Object> a = attributes(ex, 200);
            a.put("ourios.tenant", ex.tenant());
            a.put("ourios.tail.rows", sent);
            events.info("ourios.tail.ended", "tail ended after " + sent + " rows", a);
        } catch (HttpRefusal r) {
            events.info("ourios.http.request.refused", r.getMessage(), attributes(ex, r.status()));
            throw r;
        }
    }

    private void delete(Exchange ex) throws IOException {
        try {
            deletes.handle(ex);
        } catch (HttpRefusal r) {
            events.info("ourios.http.request.refused", r.getMessage(), attributes(ex, r.status()));
            throw r;
        }
    }

    private void files(Exchange ex) throws IOException {
        try {
            listFiles(ex);
        } catch (HttpRefusal r) {
            events.info("ourios.http.request.refused", r.getMessage(), attributes(ex, r.status()));
            throw r;
        }
    }

    private void listFiles(Exchange ex) throws IOException {
        String tenant = ex.tenant();
        Optional<Instant> from = Optional.empty();
        Optional<Instant> to = Optional.empty();
        for (Map.Entry<String, String> p : ex.queryParameters().entrySet()) {
            switch (p.getKey()) {
                case "from" -> from = Optional.of(time("from", p.getValue()));
                case "to" -> to = Optional.of(time("to", p.getValue()));
                default -> throw BadRequest.field(p.getKey(), "unknown query parameter (known: from, to)");
            }
        }
        if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
            throw BadRequest.field("to", "must be after from (" + from.get() + ")");
        }
        readable();
        List<Map<String, Object>> out = new ArrayList<>();
        for (LiveFiles.LiveFile f : files.list(tenant, from, to)) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("path", f.key()); // relative to the store root: never a server path
            o.put("partition", f.partition().hourLabel());
            o.put("bytes", f.size());
            out.add(o);
        }
        ex.sendJson(200, Map.of("files", out));
    }

    private void readable() {
        Optional<String> why = probe.unreadable();
        if (why.isPresent()) {
            throw new HttpRefusal(503, null, "store unavailable: " + why.get(), 5);
        }
    }

    private void ready(Exchange ex) throws IOException {
        Optional<String> why = probe.notReady();
        if (why.isEmpty()) {
            ex.sendJson(200, Map.of("status", "ready"));
        } else {
            ex.sendJson(503, Map.of("status", "unavailable", "reason", why.get()));
        }
    }

    private static Instant time(String field, String v) {
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException e) {
            throw BadRequest.field(field, "'" + v + "' is not an RFC 3339 time (e.g. 2026-11-01T10:00:00Z)");
        }
    }

    /** The attributes every request event carries. */
    static Map<String, Object> attributes(Exchange ex, int status) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("http.request.method", ex.method());
        a.put("url.path", ex.path());
        a.put("http.response.status_code", status);
        a.put("duration_ms", ex.elapsedNanos() / 1_000_000);
        a.put("ourios.request_id", ex.requestId());
        return a;
    }
}
