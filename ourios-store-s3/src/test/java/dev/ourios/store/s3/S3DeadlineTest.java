package dev.ourios.store.s3;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.store.StoreException;
import dev.ourios.testkit.HungEndpoint;
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

    @Test
    void timeouts_must_be_positive_and_the_call_no_shorter_than_an_attempt() {
        Duration s = Duration.ofSeconds(1);
        assertThrows(IllegalArgumentException.class, () -> new S3Timeouts(Duration.ZERO, s, s, s));
        assertThrows(IllegalArgumentException.class, () -> new S3Timeouts(s, s, Duration.ofSeconds(2), s));
    }
}
