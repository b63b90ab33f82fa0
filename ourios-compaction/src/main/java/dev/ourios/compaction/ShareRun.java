package dev.ourios.compaction;

import dev.ourios.core.Failures;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs a rewrite's share workers at once, each on a thread of its own (one alone on the calling thread), and returns
 * their results in order. When one fails, the others are interrupted, every result that did come back is undone
 * ({@code undo}: its files deleted) and the first failure in worker order is thrown, the rest suppressed by it; so a
 * failed rewrite leaves nothing of any worker behind.
 */
final class ShareRun {
    /** One worker's part. */
    @FunctionalInterface
    interface Task<T, R> {
        R run(T work) throws IOException;
    }

    private ShareRun() {
    }

    static <T, R> List<R> all(List<T> work, Task<T, R> task, Consumer<R> undo, String threadPrefix)
            throws IOException {
        if (work.size() == 1) {
            return List.of(task.run(work.get(0)));
        }
        AtomicInteger made = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(work.size(), r -> {
            Thread t = new Thread(r, threadPrefix + "-" + made.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<R>> futures = new ArrayList<>();
            for (T w : work) {
                futures.add(pool.submit(() -> task.run(w)));
            }
            List<R> done = new ArrayList<>();
            Throwable first = null;
            boolean interrupted = false;
            for (Future<R> f : futures) {
                while (true) {
                    try {
                        done.add(f.get());
                        break;
                    } catch (ExecutionException e) {
                        Throwable cause = e.getCause() != null ? e.getCause() : e;
                        if (first == null) {
                            first = cause;
                            pool.shutdownNow(); // the other workers stop: their rows would be thrown away
                        } else if (!(cause instanceof InterruptedIOException)) {
                            first.addSuppressed(cause);
                        }
                        break;
                    } catch (InterruptedException e) {
                        // Stop every worker, then wait for each to end (they are interrupted), so that none is
                        // still writing when the rewrite gives up and its files are deleted.
                        interrupted = true;
                        pool.shutdownNow();
                        if (first == null) {
                            first = new InterruptedIOException("interrupted waiting for the share workers");
                        }
                    }
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (first != null) {
                done.forEach(undo);
                Failures.rethrow(first);
            }
            return done;
        } finally {
            pool.shutdownNow();
        }
    }
}
