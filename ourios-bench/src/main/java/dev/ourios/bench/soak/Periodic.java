package dev.ourios.bench.soak;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Runs a task at once and then every {@code every} on its own daemon thread until stopped; stop waits for it. */
final class Periodic {
    private final String name;
    private final Duration every;
    private final Runnable task;
    private final CountDownLatch stop = new CountDownLatch(1);
    private Thread thread;

    Periodic(String name, Duration every, Runnable task) {
        this.name = name;
        this.every = every;
        this.task = task;
    }

    void start() {
        thread = new Thread(() -> {
            try {
                do {
                    task.run();
                } while (!stop.await(every.toMillis(), TimeUnit.MILLISECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Lets the run in progress finish, then returns. */
    void stop() throws InterruptedException {
        stop.countDown();
        if (thread != null) {
            thread.join();
        }
    }
}
