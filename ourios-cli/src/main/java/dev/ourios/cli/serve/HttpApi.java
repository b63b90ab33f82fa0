package dev.ourios.cli.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ourios.cli.RecordJson;
import dev.ourios.cli.config.ConfigKeys;
import dev.ourios.cli.config.HttpConfig;
import dev.ourios.cli.UsageException;
import dev.ourios.core.TenantCodec;
import dev.ourios.query.LiveFiles;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.QueryStats;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP endpoint of {@code ourios serve} on the JDK's built-in server: {@code POST /v1/query},
 * {@code GET /v1/files}, {@code GET /healthz}, {@code GET /readyz}. Every response is JSON; every refusal is
 * {@code {"error":{"status","field","message"}}} naming the field, header or parameter at fault.
 *
 * <p>Requests run on a bounded pool ({@code http.threads} threads, {@code http.queue} waiting); when both are full
 * the acceptor thread runs the request itself, which stops it accepting more: back-pressure instead of an
 * unbounded queue or dropped connections.
 */
final class HttpApi {
    static final String TENANT_HEADER = "X-Ourios-Tenant";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpConfig config;
    private final QueryEngine engine;
    private final LiveFiles files;
    private final StoreProbe probe;
    private final EventLog events;
    private final AtomicInteger inFlight = new AtomicInteger();
    private HttpServer server;
    private ThreadPoolExecutor pool;

    HttpApi(HttpConfig config, QueryEngine engine, LiveFiles files, StoreProbe probe, EventLog events) {
        this.config = config;
        this.engine = engine;
        this.files = files;
        this.probe = probe;
        this.events = events;
    }

    /** Binds and starts serving; returns the bound address (the real port when 0 was configured). */
    InetSocketAddress start() {
        InetSocketAddress bind = new InetSocketAddress(config.listen().getHostString(), config.listen().getPort());
        if (bind.isUnresolved()) {
            throw new UsageException(ConfigKeys.HTTP_LISTEN + ": cannot resolve host '"
                    + config.listen().getHostString() + "'");
        }
        try {
            server = HttpServer.create(bind, 0);
        } catch (IOException e) {
            throw new UsageException(ConfigKeys.HTTP_LISTEN + ": cannot listen on " + config.address() + ": "
                    + e.getMessage(), e);
        }
        pool = new ThreadPoolExecutor(config.threads(), config.threads(), 0, TimeUnit.SECONDS,
                config.queue() == 0 ? new java.util.concurrent.SynchronousQueue<>()
                        : new ArrayBlockingQueue<>(config.queue()),
                r -> {
                    Thread t = new Thread(r, "ourios-http");
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.CallerRunsPolicy());
        server.setExecutor(r -> {
            inFlight.incrementAndGet(); // counted from acceptance, so queued requests are waited for too
            pool.execute(() -> {
                try {
                    r.run();
                } finally {
                    inFlight.decrementAndGet();
                }
            });
        });
        server.createContext("/", this::handle);
        server.start();
        return server.getAddress();
    }

    /**
     * Waits (at most {@code max}) for the requests already accepted to finish, then stops the server. The JDK
     * server's own {@code stop(delay)} waits the whole delay even when idle, and closes connections mid-response
     * when the delay runs out, hence the wait here.
     */
    void stop(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (inFlight.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        server.stop(0);
        pool.shutdown();
        pool.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void handle(HttpExchange ex) {
        long start = System.nanoTime();
        String path = ex.getRequestURI().getPath();
        try {
            switch (path) {
                case "/v1/query" -> only(ex, "POST", () -> query(ex, start));
                case "/v1/files" -> only(ex, "GET", () -> files(ex));
                case "/healthz" -> only(ex, "GET", () -> send(ex, 200, Map.of("status", "ok")));
                case "/readyz" -> only(ex, "GET", () -> ready(ex));
                default -> throw new BadRequest(404, null, "no such endpoint: " + path
                        + " (POST /v1/query, GET /v1/files, GET /healthz, GET /readyz)");
            }
        } catch (BadRequest e) {
            sendQuietly(ex, e.status(), error(e.status(), e.fieldName(), e.getMessage()));
            if (path.startsWith("/v1/")) {
                events.info("ourios.http.request.refused", e.getMessage(), attributes(ex, e.status(), start));
            }
        } catch (Exception e) {
            String msg = (path.equals("/v1/query") ? "query failed: " : "request failed: ") + oneLine(e);
            sendQuietly(ex, 500, error(500, null, msg));
            events.warn("ourios.http.request.failed", msg, attributes(ex, 500, start));
        } finally {
            ex.close(); // after the error responses above: closing first would drop them
        }
    }

    private interface Action {
        int run() throws Exception;
    }

    private static int only(HttpExchange ex, String method, Action action) throws Exception {
        if (!ex.getRequestMethod().equals(method)) {
            ex.getResponseHeaders().set("Allow", method);
            throw new BadRequest(405, null, ex.getRequestURI().getPath() + " accepts " + method + " only");
        }
        return action.run();
    }

    private int query(HttpExchange ex, long start) throws IOException {
        String tenant = tenant(ex);
        QueryRequest.Parsed request = QueryRequest.parseRequest(tenant, body(ex), config.maxRows());
        Query q = request.query();
        Map<String, Object> response = new LinkedHashMap<>();
        QueryStats st;
        if (request.count()) {
            st = engine.count(q);
            response.put("count", st.rows());
        } else {
            List<Map<String, Object>> rows = new ArrayList<>();
            st = engine.run(q, r -> rows.add(RecordJson.of(r)));
            response.put("rows", rows);
        }
        response.put("stats", JSON.readTree(st.toJson()).get("stats")); // the same object as `query --stats`
        send(ex, 200, response);
        Map<String, Object> a = attributes(ex, 200, start);
        a.put("ourios.tenant", tenant);
        a.put("ourios.query.rows", st.rows());
        a.put("ourios.query.row_groups.scanned", st.rowGroupsScanned());
        a.put("ourios.query.row_groups.pruned", st.rowGroupsPruned());
        a.put("ourios.query.bytes_read", st.bytesRead());
        events.info("ourios.query.served", "query served: " + st.rows() + " rows", a);
        return 200;
    }

    private int files(HttpExchange ex) throws IOException {
        String tenant = tenant(ex);
        Optional<Instant> from = Optional.empty();
        Optional<Instant> to = Optional.empty();
        for (Map.Entry<String, String> p : params(ex).entrySet()) {
            switch (p.getKey()) {
                case "from" -> from = Optional.of(time("from", p.getValue()));
                case "to" -> to = Optional.of(time("to", p.getValue()));
                default -> throw BadRequest.field(p.getKey(), "unknown query parameter (known: from, to)");
            }
        }
        if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
            throw BadRequest.field("to", "must be after from (" + from.get() + ")");
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (LiveFiles.LiveFile f : files.list(tenant, from, to)) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("path", f.path());
            o.put("partition", f.partition().hourLabel());
            o.put("bytes", f.size());
            out.add(o);
        }
        return send(ex, 200, Map.of("files", out));
    }

    private int ready(HttpExchange ex) throws IOException {
        Optional<String> why = probe.notReady();
        return why.isEmpty() ? send(ex, 200, Map.of("status", "ready"))
                : send(ex, 503, Map.of("status", "unavailable", "reason", why.get()));
    }

    private static String tenant(HttpExchange ex) {
        String t = ex.getRequestHeaders().getFirst(TENANT_HEADER);
        if (t == null || t.isEmpty()) {
            throw new BadRequest(400, TENANT_HEADER, "missing header " + TENANT_HEADER + " (the tenant to query)");
        }
        try {
            TenantCodec.encode(t);
        } catch (IllegalArgumentException e) {
            throw BadRequest.field(TENANT_HEADER, e.getMessage());
        }
        return t;
    }

    /** The body, refused with 413 above {@code http.max_body_bytes} before (declared) or while (chunked) reading. */
    private byte[] body(HttpExchange ex) throws IOException {
        int max = config.maxBodyBytes();
        String declared = ex.getRequestHeaders().getFirst("Content-Length");
        if (declared != null) {
            try {
                if (Long.parseLong(declared.trim()) > max) {
                    throw tooLarge(max);
                }
            } catch (NumberFormatException e) {
                throw new BadRequest(400, "Content-Length", "Content-Length: '" + declared + "' is not a number");
            }
        }
        try (InputStream in = ex.getRequestBody()) {
            byte[] b = in.readNBytes(max + 1);
            if (b.length > max) {
                throw tooLarge(max);
            }
            return b;
        }
    }

    private static BadRequest tooLarge(int max) {
        return new BadRequest(413, null, "request body larger than " + max + " bytes (http.max_body_bytes)");
    }

    private static Map<String, String> params(HttpExchange ex) {
        Map<String, String> out = new LinkedHashMap<>();
        String raw = ex.getRequestURI().getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            if (out.put(k, v) != null) {
                throw BadRequest.field(k, "given twice");
            }
        }
        return out;
    }

    private static Instant time(String field, String v) {
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException e) {
            throw BadRequest.field(field, "'" + v + "' is not an RFC 3339 time (e.g. 2026-11-01T10:00:00Z)");
        }
    }

    private static int send(HttpExchange ex, int status, Object body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        ex.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
        return status;
    }

    /** For error paths: the response may already be half sent (the client gets a cut response, nothing else). */
    private static void sendQuietly(HttpExchange ex, int status, Object body) {
        try {
            send(ex, status, body);
        } catch (IOException | RuntimeException e) {
            // headers were already sent, or the client went away
        }
    }

    private static Map<String, Object> error(int status, String field, String message) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("status", status);
        e.put("field", field);
        e.put("message", message);
        return Map.of("error", e);
    }

    private static Map<String, Object> attributes(HttpExchange ex, int status, long start) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("http.request.method", ex.getRequestMethod());
        a.put("url.path", ex.getRequestURI().getPath());
        a.put("http.response.status_code", status);
        a.put("duration_ms", (System.nanoTime() - start) / 1_000_000);
        return a;
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage();
        return (m == null || m.isBlank() ? e.getClass().getSimpleName() : m).replace('\n', ' ');
    }
}
