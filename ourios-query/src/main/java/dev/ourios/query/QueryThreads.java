package dev.ourios.query;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads an engine's queries run their helpers on: a partition's second reader ({@link PartitionScan}), the
 * partitions of a count read side by side ({@link PartitionPool}), a remote store's days planned ahead
 * ({@link DayReads#prefetch}).
 *
 * <p>A helper starts at once, on an idle thread of the engine or a new one, never behind another query's helpers:
 * a query takes no more threads than it did with a thread of its own per helper. What changes is that a thread is kept
 * for {@link #KEEP_ALIVE_SECONDS} after its last task, so queries in steady use start and end none. A thread started
 * and ended per query costs the next query about 30 µs whatever thread it runs on, a third of a count over one
 * compacted file (docs/architecture.md, "Query threads").
 *
 * <p>Threads are daemons: an engine is never closed, and an idle one holds no thread past the keep-alive.
 */
final class QueryThreads {
    /** How long an idle thread is kept for the next helper. */
    static final long KEEP_ALIVE_SECONDS = 60;

    private final ThreadPoolExecutor pool;
    private final AtomicInteger running = new AtomicInteger();

    QueryThreads() {
        AtomicInteger made = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "ourios-query-" + made.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Runs {@code task} on a thread of this engine, started now. */
    Helper start(Runnable task) {
        Helper helper = new Helper();
        running.incrementAndGet();
        try {
            pool.execute(() -> helper.run(task));
        } catch (RuntimeException e) {
            running.decrementAndGet();
            throw e;
        }
        return helper;
    }

    /** The helpers running now (for tests: none is left running once its query has returned). */
    int running() {
        return running.get();
    }

    /** One helper: interrupted and waited for as a thread of its own would be. */
    final class Helper {
        private final CountDownLatch done = new CountDownLatch(1);
        private Thread runner;
        private boolean interrupted;

        private void run(Runnable task) {
            try {
                synchronized (this) {
                    if (interrupted) {
                        return;
                    }
                    runner = Thread.currentThread();
                }
                task.run();
            } finally {
                synchronized (this) {
                    runner = null;
                    Thread.interrupted(); // an interrupt meant for this task does not reach the thread's next one
                }
                running.decrementAndGet();
                done.countDown();
            }
        }

        /** Interrupts the task (if it has not started, it never runs). */
        synchronized void interrupt() {
            interrupted = true;
            if (runner != null) {
                runner.interrupt();
            }
        }

        /** Waits until the task has ended (or was interrupted before it started). */
        void join() throws InterruptedException {
            done.await();
        }
    }
}
