package dev.ourios.server.lifecycle;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Turns SIGTERM (and SIGINT) into a drain for the long-running commands ({@code compact} daemon, {@code serve}).
 *
 * <p>A JVM ends on SIGTERM by running its shutdown hooks and then exiting with 143, whatever the hooks do, unless a
 * hook halts it first. So the hook installed here (1) runs the registered stop actions (e.g.
 * {@code SweepRunner.requestStop()}: no new partition starts), (2) waits until the command's main thread has
 * finished draining and closed its resources (telemetry flushed) and calls {@link #close()}, at most the drain
 * timeout, and (3) halts with 0. Halting after a timeout is safe too: a compaction abandoned mid-write left only an
 * uncommitted output, which GC collects.
 *
 * <p>Use in try-with-resources, opened before (so closed after) the resources the drain must close:
 * {@code try (Shutdown drain = Shutdown.onSignal(...); ObjectStore s = ...; Telemetry t = ...)}.
 * On a normal return {@link #close()} removes the hook, so an ordinary exit keeps its own status.
 */
public final class Shutdown implements AutoCloseable {
    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch drained = new CountDownLatch(1);
    private final List<Runnable> onStop = new CopyOnWriteArrayList<>();
    private final Duration drainTimeout;
    private final Consumer<String> log;
    private final Thread hook;

    private Shutdown(Duration drainTimeout, Consumer<String> log, boolean install) {
        this.drainTimeout = drainTimeout;
        this.log = log;
        this.hook = install ? new Thread(this::onSignal, "ourios-shutdown") : null;
        if (hook != null) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    /**
     * Installs the SIGTERM hook.
     *
     * @param drainTimeout how long running work may take to finish before the process halts anyway
     * @param log          one-line notices (drain started, timed out), e.g. to the daemon's event log
     */
    public static Shutdown onSignal(Duration drainTimeout, Consumer<String> log) {
        return new Shutdown(drainTimeout, log, true);
    }

    /** For one-shot runs: nothing is installed; {@link #requestStop()} still works for tests and callers. */
    public static Shutdown none() {
        return new Shutdown(Duration.ZERO, s -> { }, false);
    }

    /** Registers an action run once when a stop is requested (immediately if it already was). */
    public void whenStopping(Runnable action) {
        onStop.add(action);
        if (stopRequested()) {
            action.run();
        }
    }

    public boolean stopRequested() {
        return stop.getCount() == 0;
    }

    /** Requests a stop as SIGTERM would, without exiting the process. */
    public void requestStop() {
        if (stopRequested()) {
            return;
        }
        stop.countDown();
        for (Runnable r : onStop) {
            r.run();
        }
    }

    /** Sleeps for {@code d} or until a stop is requested, whichever comes first. */
    public void sleep(Duration d) throws InterruptedException {
        stop.await(d.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void onSignal() {
        log.accept("stop requested: no new work starts; draining (at most " + drainTimeout + ")");
        requestStop();
        boolean done;
        try {
            done = drained.await(drainTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            done = false;
        }
        if (!done) {
            log.accept("drain timed out after " + drainTimeout
                    + "; abandoning running work (uncommitted outputs are left for GC)");
        }
        flush(System.out);
        flush(System.err);
        // Without this the JVM would exit 143 (128 + SIGTERM) although it stopped cleanly.
        Runtime.getRuntime().halt(0);
    }

    private static void flush(PrintStream s) {
        s.flush();
    }

    /** The command's main thread is done: lets a pending signal halt the process, or removes the hook. */
    @Override
    public void close() {
        drained.countDown();
        if (hook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down (a signal): the hook halts it once it sees the drain finished.
        }
    }
}
