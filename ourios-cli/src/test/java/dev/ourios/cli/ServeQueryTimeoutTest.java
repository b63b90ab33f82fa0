package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A regex-heavy search over a real {@code serve} child with a short {@code http.query_timeout} and one query slot:
 * the query, the stats and the values requests are each answered 504 within a bounded wait, and each time the scan is
 * stopped, so the one slot is free again for the next request (a scan left running would hold it: 429).
 */
class ServeQueryTimeoutTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Two dozen regexes that rarely match, so each row is run through all of them. */
    private static final String HEAVY = java.util.stream.IntStream.range(0, 24)
            .mapToObj(i -> "body:/(a|e|i|o|u)[a-z]*(x|y|z)[0-9]?q" + i + "(k|w)+$/")
            .collect(java.util.stream.Collectors.joining(" OR "));
    /** How soon after its 504 a stopped scan has let its slot go; a scan left running holds it for far longer. */
    private static final Duration PROMPTLY = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    @Test
    void a_slow_search_is_cut_at_the_query_timeout_and_frees_its_slot() throws Exception {
        Path store = Files.createDirectories(dir.resolve("store"));
        InProcessCli.Result g = InProcessCli.run("generate", "--store", store.toString(), "--start",
                "2026-11-01T10:00:00Z", "--hours", "2", "--files-per-hour", "8", "--rows-per-file", "20000",
                "--seed", "3");
        assertEquals(0, g.exit(), g.err());
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_HTTP_QUERY_TIMEOUT", "100ms", "OURIOS_HTTP_MAX_CONCURRENT_QUERIES", "1"), "serve",
                "--store", store.toString(), "--http", "127.0.0.1:0")) {
            String q = JSON.writeValueAsString(HEAVY);
            String window = "\"from\":\"2026-11-01T10:00:00Z\",\"to\":\"2026-11-01T12:00:00Z\"";
            for (int round = 0; round < 3; round++) {
                int endpoint = round;
                HttpResponse<String> cut = untilNotBusy(() -> switch (endpoint) {
                    case 0 -> serve.post("/v1/query", "default", "{\"q\":" + q + ",\"count\":true}");
                    case 1 -> serve.post("/v1/stats", "default", "{" + window + ",\"q\":" + q + "}");
                    default -> serve.get("/v1/fields/service/values?q=" + java.net.URLEncoder.encode(HEAVY,
                            java.nio.charset.StandardCharsets.UTF_8), "default");
                });
                assertEquals(504, cut.statusCode(), cut.body());
                JsonNode error = JSON.readTree(cut.body()).get("error");
                assertTrue(error.get("message").asText().contains("http.query_timeout"), cut.body());
            }
            // the slot is free again once the last scan has stopped: the next request gets it (200, or 504 if even
            // this one outruns the short deadline on a loaded machine), never 429
            HttpResponse<String> cheap = untilNotBusy(() -> serve.post("/v1/query", "default",
                    "{\"service\":\"nobody\",\"count\":true,\"from\":\"2026-11-01T10:00:00Z\","
                            + "\"to\":\"2026-11-01T10:00:01Z\"}"));
            assertTrue(cheap.statusCode() == 200 || cheap.statusCode() == 504, cheap.body());
        }
    }

    @FunctionalInterface
    private interface Call {
        HttpResponse<String> send() throws Exception;
    }

    /**
     * The first answer that is not 429 within {@link #PROMPTLY}: the previous request's scan holds the one slot until
     * it stops, a few hundred rows after its deadline; a scan not stopped would run for far longer and fail this.
     */
    private static HttpResponse<String> untilNotBusy(Call call) throws Exception {
        long deadline = System.nanoTime() + PROMPTLY.toNanos();
        while (true) {
            HttpResponse<String> r = call.send();
            if (r.statusCode() != 429 || System.nanoTime() > deadline) {
                return r;
            }
            Thread.onSpinWait();
        }
    }
}
