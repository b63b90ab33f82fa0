package dev.ourios.store.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.store.StoreException;
import dev.ourios.testkit.HungEndpoint;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/**
 * An S3 endpoint that accepts connections and never answers fails every kind of request within the configured
 * deadlines, with one line naming the endpoint, the request and the setting that expired, instead of hanging on
 * TCP's own timeouts for minutes.
 */
@Timeout(120)
class S3DeadlineTest {
    private static S3Config config(HungEndpoint hung, S3Timeouts timeouts) {
        return S3Config.of("b", "p").withEndpoint(hung.uri()).withCredentials(new S3Credentials("test", "testsecret"))
                .withTimeouts(timeouts);
    }

    private static void assertFailsWithin(Duration bound, String expected, Executable op) {
        long start = System.nanoTime();
        StoreException e = assertThrows(StoreException.class, op);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(bound) <= 0, "took " + took + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertFalse(e.getMessage().contains("testsecret"), e.getMessage());
    }

    @Test
    void the_read_timeout_bounds_each_attempt_and_the_call_timeout_bounds_the_retries() throws Exception {
        try (HungEndpoint hung = HungEndpoint.start()) {
            S3Timeouts t = new S3Timeouts(Duration.ofSeconds(1), Duration.ofMillis(500), Duration.ofSeconds(2),
                    Duration.ofSeconds(3));
            try (S3ObjectStore store = new S3ObjectStore(config(hung, t))) {
                // Each attempt ends on the read timeout; retries go on until the call deadline or the attempts end.
                for (Executable op : List.<Executable>of(() -> store.listObjects("data/"), () -> store.stat("k"),
                        () -> store.openStream("k"), store::checkBucket, () -> store.put("k", new byte[10]))) {
                    assertFailsWithin(Duration.ofSeconds(8), "S3 endpoint " + hung.uri(), op);
                }
            }
            assertTrue(hung.connections() > 0, "the requests reached the endpoint");
        }
    }

    @Test
    void the_call_timeout_is_named_when_it_expires_first() throws Exception {
        try (HungEndpoint hung = HungEndpoint.start()) {
            S3Timeouts t = new S3Timeouts(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(1),
                    Duration.ofMillis(1500));
            try (S3ObjectStore store = new S3ObjectStore(config(hung, t))) {
                assertFailsWithin(Duration.ofSeconds(6), "store.s3.call_timeout", () -> store.listObjects("data/"));
            }
        }
    }

    @Test
    void the_attempt_timeout_is_named_when_every_attempt_expires() throws Exception {
        try (HungEndpoint hung = HungEndpoint.start()) {
            S3Timeouts t = new S3Timeouts(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMillis(300),
                    Duration.ofSeconds(30));
            try (S3ObjectStore store = new S3ObjectStore(config(hung, t).withMaxAttempts(2))) {
                assertFailsWithin(Duration.ofSeconds(6), "store.s3.attempt_timeout", () -> store.stat("k"));
            }
        }
    }

    /**
     * A response whose body trickles in, a byte every {@code gap}: slower overall than the call deadline, never
     * silent for as long as the read deadline.
     */
    private static void trickle(ServerSocket server, byte[] body, Duration gap) {
        try (Socket s = server.accept()) {
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                    StandardCharsets.ISO_8859_1));
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                // the request head; a GET has no body
            }
            OutputStream out = s.getOutputStream();
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: " + body.length
                    + "\r\nETag: \"e\"\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            for (byte b : body) {
                Thread.sleep(gap.toMillis()); // pacing the body is the point of this server
                out.write(b);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the client gave up: the test's assertion reports it
        }
    }

    @Test
    void a_slow_but_moving_body_is_not_cut_off_by_the_call_deadline() throws Exception {
        byte[] body = "0123456789".getBytes(StandardCharsets.US_ASCII);
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> trickle(server, body, Duration.ofMillis(250)), "trickling-server");
            t.setDaemon(true);
            t.start();
            S3Timeouts timeouts = new S3Timeouts(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(1),
                    Duration.ofSeconds(1));
            S3Config c = S3Config.of("b", "p").withEndpoint(URI.create("http://127.0.0.1:"
                    + server.getLocalPort())).withCredentials(new S3Credentials("test", "testsecret"))
                    .withTimeouts(timeouts).withMaxAttempts(1);
            try (S3ObjectStore store = new S3ObjectStore(c); InputStream in = store.openStream("k")) {
                long start = System.nanoTime();
                byte[] got = in.readAllBytes();
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertArrayEquals(body, got);
                assertTrue(took.compareTo(timeouts.call()) > 0, "the body took longer than the call deadline: " + took);
            }
            t.join(10_000);
        }
    }

    @Test
    void timeouts_must_be_positive_and_the_call_no_shorter_than_an_attempt() {
        Duration s = Duration.ofSeconds(1);
        assertThrows(IllegalArgumentException.class, () -> new S3Timeouts(Duration.ZERO, s, s, s));
        assertThrows(IllegalArgumentException.class, () -> new S3Timeouts(s, s, Duration.ofSeconds(2), s));
    }
}
