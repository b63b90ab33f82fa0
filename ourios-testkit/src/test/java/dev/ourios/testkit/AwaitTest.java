package dev.ourios.testkit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {
    @Test
    void returns_once_the_condition_holds() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        assertTrue(Await.poll(Duration.ofMinutes(1), () -> calls.incrementAndGet() >= 3));
        Await.until("third call", Duration.ofMinutes(1), () -> calls.incrementAndGet() >= 6);
    }

    @Test
    void gives_up_at_the_deadline() throws Exception {
        long t0 = System.nanoTime();
        assertFalse(Await.poll(Duration.ofMillis(100), () -> false));
        assertTrue(System.nanoTime() - t0 >= 100_000_000L);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Await.until("nothing", Duration.ofMillis(10), () -> false));
        assertTrue(e.getMessage().contains("nothing"), e.getMessage());
    }
}
