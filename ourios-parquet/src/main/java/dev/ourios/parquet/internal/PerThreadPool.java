package dev.ourios.parquet.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A fixed pool of named daemon threads, each with a resource of its own made on its first task (a compression
 * context: zstd-jni's and parquet-java's are not thread-safe). {@link #close} stops the threads, then releases every
 * resource made. What the run compressors ({@code runs.RunCompressors}) and the page compressors
 * ({@code write.PageCompressors}) run their work on.
 *
 * <p>Internal to ourios-parquet: public only because both the {@code write} and the {@code runs} packages use it.
 */
public final class PerThreadPool<R> implements AutoCloseable {
    private final ExecutorService pool;
    private final ThreadLocal<R> resources;
    private final List<R> made = new ArrayList<>();
    private final Consumer<R> release;

    public PerThreadPool(int threads, String threadName, Supplier<R> make, Consumer<R> release) {
        this.release = release;
        this.resources = ThreadLocal.withInitial(() -> {
            R r = make.get();
            synchronized (made) {
                made.add(r);
            }
            return r;
        });
        int[] n = {0};
        this.pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread t = new Thread(runnable, threadName + "-" + n[0]++);
            t.setDaemon(true);
            return t;
        });
    }

    /** Work done with a pool thread's resource; what it throws reaches the caller through the future. */
    @FunctionalInterface
    public interface Work<R, T> {
        T run(R resource) throws Exception;
    }

    /** Runs {@code work} on a pool thread with that thread's resource. */
    public <T> Future<T> submit(Work<R, T> work) {
        return pool.submit(() -> work.run(resources.get()));
    }

    @Override
    public void close() {
        pool.shutdownNow();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (made) {
            made.forEach(release);
            made.clear();
        }
    }
}
