package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ourios.testkit.Await;
import dev.ourios.testkit.TestSeed;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search endpoints of a real {@code ourios serve} child over a generated store with typed attributes:
 * {@code /v1/stats} totals equal {@code /v1/query} counts for the same query and window (seeded), group-by with the
 * "other" series, {@code /v1/fields} and {@code /v1/fields/{name}/values} against counts, bad queries refused with
 * their column, and {@code /v1/tail}: a record sent over OTLP/HTTP arrives, and a client whose queue overflows is
 * told how many rows were dropped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServeSearchEndpointsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TENANT = "default";
    private static final Instant START = Instant.parse("2026-11-01T10:00:00Z");
    private static final Instant END = START.plus(Duration.ofHours(2));
    private static final int TAIL_QUEUE = 5;

    private DaemonProcess serve;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        Path store = Files.createDirectories(dir.resolve("store"));
        InProcessCli.Result g = InProcessCli.run("generate", "--store", store.toString(), "--start", START.toString(),
                "--hours", "2", "--files-per-hour", "2", "--rows-per-file", "1500", "--services", "5", "--seed", "7");
        assertEquals(0, g.exit(), g.err());
        serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_INGEST_FLUSH_INTERVAL", "100ms", "OURIOS_HTTP_TAIL_QUEUE_ROWS", String.valueOf(TAIL_QUEUE),
                "OURIOS_HTTP_TAIL_HEARTBEAT", "1s"), "serve", "--store", store.toString(), "--http", "127.0.0.1:0");
        serve.port();
    }

    @AfterAll
    void stop() {
        if (serve != null) {
            serve.close();
        }
    }

    /** Pieces of random searches over the generated shape (services, severities, typed attributes, words). */
    private static final List<String> PIECES = List.of("service:cart", "service:checkout", "NOT service:frontend",
            "severity:>=warn", "severity:error", "severity:info", "attributes.app.product.quantity:>=3",
            "attributes.app.product.quantity:<2", "attributes.app.recommendation.cache_enabled:true",
            "attributes.app.user.id:*", "resource.service.name:ad", "scope:*", "NOT severity:warn");

    @Test
    void stats_totals_equal_the_query_count_for_the_same_search_and_window() throws Exception {
        long seed = TestSeed.announce(ServeSearchEndpointsTest.class);
        Random random = new Random(seed);
        for (int i = 0; i < 12; i++) {
            String q = search(random);
            long fromSec = random.nextInt(3600);
            Instant from = START.plusSeconds(fromSec);
            Instant to = from.plusSeconds(60 + random.nextInt(7200 - (int) fromSec - 59));
            long expected = count(q, from, to);
            ObjectNode body = JSON.createObjectNode().put("from", from.toString()).put("to", to.toString())
                    .put("q", q).put("max_groups", 1 + random.nextInt(4));
            if (random.nextBoolean()) {
                body.putArray("group_by").add("service").add(random.nextBoolean() ? "severity"
                        : "attributes.app.recommendation.cache_enabled");
            }
            JsonNode stats = ok(serve.post("/v1/stats", TENANT, body.toString()));
            String what = "seed " + seed + ", q '" + q + "' [" + from + ", " + to + ")";
            assertEquals(expected, stats.get("total").asLong(), what);
            long sum = 0;
            int buckets = stats.get("buckets").size();
            for (JsonNode s : stats.get("series")) {
                assertEquals(buckets, s.get("counts").size(), what);
                long seriesSum = 0;
                for (JsonNode c : s.get("counts")) {
                    seriesSum += c.asLong();
                }
                assertEquals(s.get("total").asLong(), seriesSum, what);
                sum += seriesSum;
            }
            assertEquals(expected, sum, what);
            assertTrue(buckets <= 250, what + ": " + buckets + " buckets");
        }
    }

    private static String search(Random random) {
        int n = 1 + random.nextInt(3);
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            parts.add(PIECES.get(random.nextInt(PIECES.size())));
        }
        return String.join(random.nextBoolean() ? " " : " OR ", parts);
    }

    @Test
    void group_by_keeps_the_largest_groups_and_sums_the_rest_as_other() throws Exception {
        JsonNode stats = ok(serve.post("/v1/stats", TENANT, "{\"from\":\"" + START + "\",\"to\":\"" + END
                + "\",\"step\":\"10m\",\"group_by\":[\"service\"],\"max_groups\":2}"));
        assertEquals(12, stats.get("buckets").size());
        assertEquals("10m", stats.get("step").asText());
        JsonNode series = stats.get("series");
        assertEquals(3, series.size(), series.toString());
        long total = count("", START, END);
        long first = series.get(0).get("total").asLong();
        long second = series.get(1).get("total").asLong();
        assertTrue(first >= second);
        for (int i = 0; i < 2; i++) {
            String service = series.get(i).get("group").get("service").asText();
            assertEquals(count("service:" + service, START, END), series.get(i).get("total").asLong(), service);
            assertFalse(series.get(i).get("other").asBoolean());
        }
        JsonNode other = series.get(2);
        assertTrue(other.get("other").asBoolean());
        assertEquals(total - first - second, other.get("total").asLong());
        assertTrue(other.get("total").asLong() <= second * 3, "three smaller services in other");
    }

    @Test
    void severity_groups_are_the_opentelemetry_range_names() throws Exception {
        JsonNode stats = ok(serve.post("/v1/stats", TENANT, "{\"from\":\"" + START + "\",\"to\":\"" + END
                + "\",\"group_by\":[\"severity\"]}"));
        assertEquals("1m", stats.get("step").asText(), "2h in about 100 buckets: 1m");
        for (JsonNode s : stats.get("series")) {
            String name = s.get("group").get("severity").asText();
            assertEquals(count("severity:" + name, START, END), s.get("total").asLong(), name);
        }
    }

    @Test
    void fields_and_values_count_the_rows_holding_each() throws Exception {
        String window = "from=" + enc(START.toString()) + "&to=" + enc(END.toString());
        JsonNode fields = ok(serve.get("/v1/fields?" + window, TENANT));
        assertFalse(fields.get("partial").asBoolean());
        boolean sawQuantity = false;
        for (JsonNode f : fields.get("fields")) {
            String name = f.get("name").asText();
            if (name.equals("attributes.app.product.quantity")) {
                sawQuantity = true;
                assertEquals(count(name + ":*", START, END), f.get("rows").asLong());
            }
            if (name.equals("resource.service.name")) {
                assertEquals(count("", START, END), f.get("rows").asLong());
            }
        }
        assertTrue(sawQuantity, fields.toString());

        String typed = "attributes.app.recommendation.cache_enabled";
        JsonNode values = ok(serve.get("/v1/fields/" + typed + "/values?" + window + "&q="
                + enc("severity:info"), TENANT));
        assertEquals(typed, values.get("field").asText());
        assertTrue(values.get("values").size() == 2, values.toString());
        for (JsonNode v : values.get("values")) {
            String value = v.get("value").asText();
            assertTrue(value.equals("true") || value.equals("false"), value);
            assertEquals(count("severity:info " + typed + ":" + value, START, END), v.get("rows").asLong());
        }

        JsonNode limited = ok(serve.get("/v1/fields/service/values?" + window + "&limit=2", TENANT));
        assertEquals(2, limited.get("values").size());
        assertTrue(limited.get("values").get(0).get("rows").asLong()
                >= limited.get("values").get(1).get("rows").asLong());
    }

    @Test
    void a_bad_search_is_refused_with_its_column_on_every_endpoint() throws Exception {
        String bad = "service:(cart";
        String window = "\"from\":\"" + START + "\",\"to\":\"" + END + "\"";
        List<HttpResponse<String>> answers = List.of(
                serve.post("/v1/query", TENANT, "{\"q\":\"" + bad + "\"}"),
                serve.post("/v1/stats", TENANT, "{" + window + ",\"q\":\"" + bad + "\"}"),
                serve.post("/v1/delete", TENANT, "{" + window + ",\"q\":\"" + bad + "\",\"dry_run\":true}"),
                serve.get("/v1/fields?q=" + enc(bad), TENANT),
                serve.get("/v1/fields/service/values?q=" + enc(bad), TENANT),
                serve.get("/v1/tail?q=" + enc(bad), TENANT));
        for (HttpResponse<String> r : answers) {
            assertEquals(400, r.statusCode(), r.uri() + " " + r.body());
            JsonNode error = JSON.readTree(r.body()).get("error");
            assertEquals("q", error.get("field").asText(), r.body());
            assertTrue(error.get("message").asText().startsWith("q: column "), r.body());
            assertTrue(error.get("message").asText().length() < 300, r.body());
        }
        HttpResponse<String> unknownField = serve.get("/v1/fields/nonsense/values", TENANT);
        assertEquals(400, unknownField.statusCode(), unknownField.body());
    }

    @Test
    void a_record_sent_over_otlp_arrives_on_the_tail_and_others_do_not() throws Exception {
        try (Tail tail = Tail.open(http, serve.port(), "tailmarker OR service:tailsvc")) {
            postLogs(List.of("a line without the word", "the tailmarker line"), "othersvc");
            JsonNode row = tail.nextRow(Duration.ofSeconds(30));
            assertEquals("the tailmarker line", row.get("body").asText());
            postLogs(List.of("plain line"), "tailsvc");
            JsonNode second = tail.nextRow(Duration.ofSeconds(30));
            assertEquals("plain line", second.get("body").asText(), "the non-matching line never arrives");
        }
    }

    @Test
    void ourios_tail_prints_the_matching_rows_a_running_server_lands(@TempDir Path work) throws Exception {
        try (DaemonProcess tail = DaemonProcess.start(work, Map.of(), "tail", "--http", "http://127.0.0.1:"
                + serve.port(), "--tenant", TENANT, "-q", "clitailmarker", "--json")) {
            // the tail is subscribed once the server counts it among the open tails: poll until a record lands
            String line = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (line == null && System.nanoTime() < deadline) {
                postLogs(List.of("the clitailmarker line", "another line"), "clisvc");
                line = tail.out().stream().filter(l -> l.contains("clitailmarker")).findFirst().orElse(null);
                if (line == null) {
                    Await.poll(Duration.ofSeconds(2), () -> tail.out().stream().anyMatch(l -> l.contains(
                            "clitailmarker")));
                    line = tail.out().stream().filter(l -> l.contains("clitailmarker")).findFirst().orElse(null);
                }
            }
            assertTrue(line != null, "no row on ourios tail's stdout: " + tail.err());
            assertEquals("the clitailmarker line", JSON.readTree(line).get("body").asText());
            assertTrue(tail.out().stream().noneMatch(l -> l.contains("another line")), tail.out().toString());
        }
    }

    @Test
    void ourios_tail_refuses_a_bad_search_before_connecting_and_fails_on_no_server(@TempDir Path work)
            throws Exception {
        CliProcess.Result bad = CliProcess.run(work, "tail", "--http", "http://127.0.0.1:1", "--tenant", TENANT,
                "-q", "service:(cart");
        assertEquals(2, bad.exit(), bad.err());
        assertTrue(bad.err().contains("-q: column "), bad.err());
        CliProcess.Result none = CliProcess.run(work, "tail", "--http", "http://127.0.0.1:1", "--tenant", TENANT);
        assertEquals(1, none.exit(), none.err());
        assertTrue(none.err().contains("cannot reach"), none.err());
    }

    @Test
    void a_client_whose_queue_overflows_is_told_how_many_rows_were_dropped() throws Exception {
        int sent = 60;
        try (Tail tail = Tail.open(http, serve.port(), "service:burst")) {
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < sent; i++) {
                lines.add("burst line " + i);
            }
            postLogs(lines, "burst"); // one request, one flush: the rows reach the queue at once
            long rows = 0;
            long dropped = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (rows + dropped < sent) {
                Tail.Event e = tail.next(Duration.ofNanos(deadline - System.nanoTime()));
                if (e.name().equals("dropped")) {
                    dropped += JSON.readTree(e.data()).get("dropped").asLong();
                } else if (e.name().equals("message")) {
                    rows++;
                }
            }
            assertEquals(sent, rows + dropped);
            assertTrue(dropped >= sent - TAIL_QUEUE, "dropped " + dropped);
            assertTrue(rows <= TAIL_QUEUE, "rows " + rows);
        }
    }

    /** The number of matching rows as {@code POST /v1/query} with {@code "count":true} says. */
    private long count(String q, Instant from, Instant to) throws Exception {
        ObjectNode body = JSON.createObjectNode().put("from", from.toString()).put("to", to.toString())
                .put("count", true);
        if (!q.isEmpty()) {
            body.put("q", q);
        }
        return ok(serve.post("/v1/query", TENANT, body.toString())).get("count").asLong();
    }

    private void postLogs(List<String> bodies, String service) throws Exception {
        long now = Instant.now().toEpochMilli() * 1_000_000L;
        StringBuilder records = new StringBuilder();
        for (String b : bodies) {
            if (records.length() > 0) {
                records.append(',');
            }
            records.append("{\"timeUnixNano\":\"").append(now).append("\",\"severityNumber\":9,\"body\":{")
                    .append("\"stringValue\":\"").append(b).append("\"}}");
        }
        String json = "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
                + "{\"stringValue\":\"" + service + "\"}}]},\"scopeLogs\":[{\"logRecords\":[" + records + "]}]}]}";
        HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + serve.ingestPort() + "/v1/logs"))
                .header("Content-Type", "application/json").header("X-Ourios-Tenant", TENANT)
                .POST(HttpRequest.BodyPublishers.ofString(json)).timeout(Duration.ofSeconds(30)).build();
        HttpResponse<String> answer = http.send(r, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
    }

    private static JsonNode ok(HttpResponse<String> r) throws Exception {
        assertEquals(200, r.statusCode(), r.uri() + " " + r.body());
        return JSON.readTree(r.body());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** A {@code GET /v1/tail} client reading its events on a thread of its own into a queue. */
    static final class Tail implements AutoCloseable {
        record Event(String name, String data) {
        }

        private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        private final InputStream body;
        private final Thread reader;

        private Tail(InputStream body) {
            this.body = body;
            this.reader = new Thread(this::read, "tail-reader");
            reader.setDaemon(true);
            reader.start();
        }

        /**
         * Opens the tail and waits for the server to say it is subscribed. A tail an earlier test closed holds its
         * slot until the server next writes to it (a heartbeat at most): 429 until then, so this retries as the
         * 429 asks, within the same deadline.
         */
        static Tail open(HttpClient http, int port, String q) throws Exception {
            HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/tail?q="
                    + URLEncoder.encode(q, StandardCharsets.UTF_8))).header("X-Ourios-Tenant", TENANT).GET().build();
            List<HttpResponse<InputStream>> got = new ArrayList<>();
            Await.until("a free live-tail slot", Duration.ofSeconds(30), () -> {
                try {
                    HttpResponse<InputStream> a = http.sendAsync(r, HttpResponse.BodyHandlers.ofInputStream())
                            .get(30, TimeUnit.SECONDS);
                    if (a.statusCode() == 429) {
                        a.body().close();
                        return false;
                    }
                    got.add(a);
                    return true;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            HttpResponse<InputStream> answer = got.get(0);
            assertEquals(200, answer.statusCode());
            assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
            Tail t = new Tail(answer.body());
            Event first = t.next(Duration.ofSeconds(30));
            assertEquals(new Event("comment", "tailing"), first);
            return t;
        }

        private void read() {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                String name = "message";
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith(": ")) {
                        events.add(new Event("comment", line.substring(2)));
                    } else if (line.startsWith("event: ")) {
                        name = line.substring(7);
                    } else if (line.startsWith("data: ")) {
                        events.add(new Event(name, line.substring(6)));
                    } else if (line.isEmpty()) {
                        name = "message";
                    }
                }
            } catch (java.io.IOException e) {
                // closed by the test
            }
        }

        /** The next event that is not a heartbeat. */
        Event next(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Event e = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (e == null) {
                    throw new AssertionError("no tail event within " + timeout);
                }
                if (!e.equals(new Event("comment", "heartbeat"))) {
                    return e;
                }
            }
        }

        JsonNode nextRow(Duration timeout) throws Exception {
            Event e = next(timeout);
            assertEquals("message", e.name(), e.toString());
            return JSON.readTree(e.data());
        }

        @Override
        public void close() throws Exception {
            body.close();
            reader.join(TimeUnit.SECONDS.toMillis(10));
        }
    }
}
