package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live tails of a real {@code serve} child: at most {@code http.tail_max_clients} are open (429 beyond), and on
 * SIGTERM every open tail is sent {@code event: end} and closed, and the server exits 0 without waiting on them.
 */
class ServeTailShutdownTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void tails_are_bounded_and_end_cleanly_when_the_server_stops() throws Exception {
        Path store = Files.createDirectories(dir.resolve("store"));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_HTTP_TAIL_MAX_CLIENTS", "2", "OURIOS_HTTP_TAIL_HEARTBEAT", "30s"), "serve", "--store",
                store.toString(), "--http", "127.0.0.1:0");
                ServeSearchEndpointsTest.Tail first = ServeSearchEndpointsTest.Tail.open(http, serve.port(), "error");
                ServeSearchEndpointsTest.Tail second = ServeSearchEndpointsTest.Tail.open(http, serve.port(), "")) {
            HttpResponse<String> third = serve.get("/v1/tail", "default");
            assertEquals(429, third.statusCode(), third.body());
            JsonNode error = JSON.readTree(third.body()).get("error");
            assertTrue(error.get("message").asText().contains("http.tail_max_clients"), third.body());

            long t0 = System.nanoTime();
            assertEquals(0, serve.terminate());
            for (ServeSearchEndpointsTest.Tail t : new ServeSearchEndpointsTest.Tail[] {first, second}) {
                ServeSearchEndpointsTest.Tail.Event end = t.next(Duration.ofSeconds(10));
                assertEquals("end", end.name(), end.toString());
            }
            assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos(), "the drain waited on the tails");
        }
    }
}
