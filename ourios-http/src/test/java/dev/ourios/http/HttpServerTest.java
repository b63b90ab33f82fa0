package dev.ourios.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.testkit.RawHttp;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The shared server over real sockets: routing, JSON for every refusal, request ids, and the timeouts. */
class HttpServerTest {
    /** These tests exercise the server, not authorization: every request passes. */
    private static final RequestGate NO_GATE = exchange -> java.util.Optional.empty();

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private HttpServer server;
    private InetSocketAddress address;
    /** Holds every {@code /hold} handler until counted down. */
    private final java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
    private final java.util.concurrent.atomic.AtomicInteger holding = new java.util.concurrent.atomic.AtomicInteger();

    private InetSocketAddress start(ServerOptions options, RequestGate gate) throws Exception {
        List<Route> routes = List.of(
                Route.open("GET", "/healthz", ex -> ex.sendJson(200, Map.of("status", "ok"))),
                Route.gated("POST", "/echo", 1024, ex -> ex.sendJson(200, Map.of("bytes", ex.body().length))),
                Route.gated("GET", "/params", 0, ex -> ex.sendJson(200, ex.queryParameters())),
                Route.gated("GET", "/hold", 0, ex -> {
                    holding.incrementAndGet();
                    try {
                        if (!held.await(60, java.util.concurrent.TimeUnit.SECONDS)) {
                            throw new IllegalStateException("never released");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                    ex.sendJson(200, Map.of("held", true));
                }),
                Route.gated("GET", "/boom", 0, ex -> {
                    throw new IllegalStateException("/secret/server/path exploded");
                }),
                Route.gated("GET", "/stream", 0, ex -> {
                    OutputStream out = ex.stream(200, "application/json");
                    out.write("{\"n\":[".getBytes(StandardCharsets.UTF_8));
                    for (int i = 0; i < 1000; i++) {
                        out.write(((i == 0 ? "" : ",") + i).getBytes(StandardCharsets.UTF_8));
                    }
                    out.write("]}".getBytes(StandardCharsets.UTF_8));
                }));
        server = new HttpServer(options, routes, gate, ErrorBody.JSON);
        address = server.start();
        return address;
    }

    private static ServerOptions options(int threads) {
        return ServerOptions.defaults("test-http", new InetSocketAddress("127.0.0.1", 0), threads, 8);
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ofSeconds(5));
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode error(String responseBody, int status) throws Exception {
        JsonNode e = JSON.readTree(responseBody).get("error");
        assertNotNull(e, responseBody);
        assertEquals(status, e.get("status").asInt(), responseBody);
        assertFalse(e.get("message").asText().isEmpty(), responseBody);
        assertFalse(e.get("request_id").asText().isEmpty(), responseBody);
        return e;
    }

    /** The body of a raw HTTP response (after the blank line). */
    private static String bodyOf(String raw) {
        int i = raw.indexOf("\r\n\r\n");
        return i < 0 ? "" : raw.substring(i + 4);
    }

    @Test
    void routes_answer_and_every_refusal_is_json_with_a_request_id() throws Exception {
        start(options(2), NO_GATE);
        HttpResponse<String> ok = get("/healthz");
        assertEquals(200, ok.statusCode());
        assertEquals("ok", JSON.readTree(ok.body()).get("status").asText());
        assertTrue(ok.headers().firstValue("X-Request-Id").isPresent());

        HttpResponse<String> missing = get("/nope");
        assertEquals(404, missing.statusCode());
        error(missing.body(), 404);

        HttpResponse<String> method = get("/echo");
        assertEquals(405, method.statusCode());
        assertEquals("POST", method.headers().firstValue("Allow").orElseThrow());
        error(method.body(), 405);

        HttpResponse<String> big = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + address.getPort() + "/echo")).POST(HttpRequest.BodyPublishers.ofString("x".repeat(5000))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(413, big.statusCode());
        error(big.body(), 413);

        try (RawHttp raw = new RawHttp(address)) {
            String bad = raw.send("GET /params?from=%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").readAll();
            assertTrue(bad.startsWith("HTTP/1.1 400"), bad);
            assertEquals("from", error(bodyOf(bad), 400).get("field").asText());
        }

        try (RawHttp raw = new RawHttp(address)) { // chunked: no Content-Length to refuse it up front
            String chunked = raw.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "800\r\n" + "y".repeat(2048) + "\r\n0\r\n\r\n").readAll();
            assertTrue(chunked.startsWith("HTTP/1.1 413"), chunked);
            error(bodyOf(chunked), 413);
        }

        HttpResponse<String> boom = get("/boom");
        assertEquals(500, boom.statusCode());
        JsonNode e = error(boom.body(), 500);
        String id = boom.headers().firstValue("X-Request-Id").orElseThrow();
        assertEquals(id, e.get("request_id").asText());
        assertEquals("internal error (request id " + id + ")", e.get("message").asText());
        assertFalse(boom.body().contains("/secret"), boom.body());

        HttpResponse<String> stream = get("/stream");
        assertEquals(200, stream.statusCode());
        assertEquals(1000, JSON.readTree(stream.body()).get("n").size());
    }

    @Test
    void malformed_requests_get_json_not_html() throws Exception {
        start(options(2), NO_GATE);
        List<String> requests = List.of(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: banana\r\n\r\n",
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                "GARBAGE\r\n\r\n",
                "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n");
        for (String r : requests) {
            try (RawHttp raw = new RawHttp(address)) {
                String answer = raw.send(r).readAll();
                assertTrue(answer.startsWith("HTTP/1.1 4"), answer);
                assertTrue(answer.toLowerCase().contains("content-type: application/json"), answer);
                int status = Integer.parseInt(answer.substring(9, 12));
                error(bodyOf(answer), status);
                assertFalse(answer.contains("<html"), answer);
            }
        }
    }

    @Test
    void the_gate_refuses_before_the_body_is_read_and_open_routes_skip_it() throws Exception {
        start(options(2), ex -> ex.header("X-Key") == null
                ? Optional.of(new HttpRefusal(401, "X-Key", "missing header X-Key")) : Optional.empty());
        HttpResponse<String> no = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + address.getPort() + "/echo")).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(401, no.statusCode());
        assertEquals("X-Key", error(no.body(), 401).get("field").asText());
        HttpResponse<String> yes = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + address.getPort() + "/echo")).header("X-Key", "k").POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, yes.statusCode());
        assertEquals(200, get("/healthz").statusCode());
    }

    @Test
    void stalled_connections_beyond_the_thread_count_do_not_delay_others_and_are_closed() throws Exception {
        Duration timeout = Duration.ofSeconds(2);
        start(options(2).withTimeouts(timeout, timeout, Duration.ofSeconds(30)), NO_GATE);
        List<RawHttp> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) { // four times the handler threads: half mid-header, half mid-body
                RawHttp r = new RawHttp(address);
                if (i % 2 == 0) {
                    r.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ");
                } else {
                    r.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"half\":");
                }
                stalled.add(r);
            }
            long t0 = System.nanoTime();
            assertEquals(200, get("/healthz").statusCode());
            HttpResponse<String> echo = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + address.getPort() + "/echo")).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, echo.statusCode());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < timeout.toMillis(), "answered in " + ms + " ms beside 8 stalled connections");
            // Each stalled connection is closed within two header timeouts (or one body timeout).
            for (RawHttp r : stalled) {
                assertTrue(r.closedByServer((int) timeout.multipliedBy(3).toMillis()), "stalled connection closed");
            }
        } finally {
            for (RawHttp r : stalled) {
                r.close();
            }
        }
    }

    @Test
    void beyond_the_busy_handlers_and_the_waiting_room_a_request_is_503_at_once_and_the_others_finish()
            throws Exception {
        start(ServerOptions.defaults("test-http", new InetSocketAddress("127.0.0.1", 0), 1, 1), NO_GATE);
        URI hold = URI.create("http://127.0.0.1:" + address.getPort() + "/hold");
        var running = client.sendAsync(HttpRequest.newBuilder(hold).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        dev.ourios.testkit.Await.until("one handler holding", Duration.ofSeconds(30), () -> holding.get() == 1);
        // One request takes the one waiting place; the others are refused at once, while both are held.
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> more = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            more.add(client.sendAsync(HttpRequest.newBuilder(hold).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        dev.ourios.testkit.Await.until("four of five refused", Duration.ofSeconds(30),
                () -> more.stream().filter(java.util.concurrent.CompletableFuture::isDone).count() == 4);
        for (var f : more) {
            if (f.isDone()) {
                HttpResponse<String> refused = f.get();
                assertEquals(503, refused.statusCode(), refused.body());
                assertTrue(error(refused.body(), 503).get("message").asText().contains("at capacity"),
                        refused.body());
                assertEquals("1", refused.headers().firstValue("Retry-After").orElse(""));
            }
        }
        assertFalse(running.isDone(), "the running request is not cut");
        var waiting = more.stream().filter(f -> !f.isDone()).findFirst().orElseThrow();
        held.countDown();
        assertEquals(200, running.get(60, java.util.concurrent.TimeUnit.SECONDS).statusCode());
        assertEquals(200, waiting.get(60, java.util.concurrent.TimeUnit.SECONDS).statusCode());
    }

    @Test
    void a_burst_of_requests_sending_their_bodies_is_not_refused_for_capacity() throws Exception {
        // One handler thread, one waiting place: requests still sending their bodies need neither yet.
        start(ServerOptions.defaults("test-http", new InetSocketAddress("127.0.0.1", 0), 1, 1), NO_GATE);
        List<RawHttp> sending = new ArrayList<>();
        try {
            for (int i = 0; i < 40; i++) {
                RawHttp r = new RawHttp(address);
                r.send("POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 4\r\n\r\n{\"");
                sending.add(r);
            }
            for (RawHttp r : sending) {
                String answer = r.send("a\"").readAll();
                // one at a time completes its body, and the one handler thread is free for it
                assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            }
        } finally {
            for (RawHttp r : sending) {
                r.close();
            }
        }
    }

    @Test
    void a_header_trickled_byte_by_byte_is_cut_off_by_the_header_timeout() throws Exception {
        Duration timeout = Duration.ofSeconds(1);
        start(options(2).withTimeouts(timeout, timeout, Duration.ofSeconds(30)), NO_GATE);
        try (RawHttp r = new RawHttp(address)) {
            r.send("GET /healthz HTTP/1.1\r\nHost: x\r\n");
            long t0 = System.nanoTime();
            boolean closed = false;
            // One byte every 100 ms keeps the idle timeout (30 s) from ever firing; only the header timeout can.
            for (int i = 0; i < 100 && !closed; i++) {
                try {
                    r.send("X");
                } catch (java.io.IOException e) {
                    closed = true;
                    break;
                }
                closed = r.closedByServer(100);
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(closed, "the trickling connection was closed");
            assertTrue(ms < 3 * timeout.toMillis(), "closed after " + ms + " ms (header timeout 1 s)");
        }
    }

    @Test
    void a_body_that_stops_short_gets_a_json_408() throws Exception {
        start(options(2).withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(30)),
                NO_GATE);
        try (RawHttp r = new RawHttp(address)) {
            String answer = r.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"half\":")
                    .readAll();
            assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
            error(bodyOf(answer), 408);
        }
    }

    @Test
    void an_address_in_use_is_an_io_exception() throws Exception {
        InetSocketAddress bound = start(options(1), NO_GATE);
        HttpServer second = new HttpServer(ServerOptions.defaults("second", bound, 1, 1), List.of(), NO_GATE,
                ErrorBody.JSON);
        assertThrows(java.io.IOException.class, second::start);
    }
}
