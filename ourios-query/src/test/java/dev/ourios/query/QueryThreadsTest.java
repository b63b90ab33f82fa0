package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class QueryThreadsTest {
    private final QueryThreads threads = new QueryThreads();

    @Test
    void a_helper_starts_at_once_even_while_every_other_helper_is_busy() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch ran = new CountDownLatch(3);
        QueryThreads.Helper[] busy = new QueryThreads.Helper[3];
        for (int i = 0; i < busy.length; i++) {
            busy[i] = threads.start(() -> {
                ran.countDown();
                awaitQuietly(release);
            });
        }
        assertTrue(ran.await(30, TimeUnit.SECONDS), "three helpers, each blocked, all running at once");
        assertEquals(3, threads.running());
        release.countDown();
        for (QueryThreads.Helper h : busy) {
            h.join();
        }
        assertEquals(0, threads.running(), "none runs once every helper was joined");
    }

    @Test
    void an_interrupted_helper_ends_and_its_interrupt_does_not_reach_the_next_task() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean sawInterrupt = new AtomicBoolean();
        QueryThreads.Helper blocked = threads.start(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                sawInterrupt.set(true);
            }
        });
        assertTrue(started.await(30, TimeUnit.SECONDS));
        blocked.interrupt();
        blocked.join();
        assertTrue(sawInterrupt.get(), "the running task was interrupted");
        // The kept thread runs the next helpers: none of them starts interrupted.
        for (int i = 0; i < 20; i++) {
            AtomicBoolean interrupted = new AtomicBoolean(true);
            QueryThreads.Helper next = threads.start(() -> interrupted.set(Thread.currentThread().isInterrupted()));
            next.join();
            assertFalse(interrupted.get(), "helper " + i + " started with an interrupt meant for an earlier task");
        }
        assertEquals(0, threads.running());
    }

    @Test
    void a_failing_task_still_counts_as_ended() throws Exception {
        QueryThreads.Helper failing = threads.start(() -> {
            throw new IllegalStateException("a task's own failure, which its caller records");
        });
        failing.join();
        assertEquals(0, threads.running());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
