package dev.ourios.server.sweep;

import dev.ourios.server.lifecycle.Shutdown;
import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.table.PartitionFilter;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The compaction daemon's schedule, shared by {@code ourios compact} (without {@code --once}) and {@code ourios
 * serve}: sweep, wait {@code every}, repeat until a stop is requested. A stop (SIGTERM) reaches the runner through
 * {@link Shutdown#whenStopping}: no new partition starts, the running ones finish, and the wait ends at once.
 */
public final class SweepLoop {
    /** What the loop reports; the CLI prints lines, the service writes events. */
    public interface Listener {
        default void started(long sweep) {
        }

        void partition(PartitionResult result);

        void finished(long sweep, SweepReport report);
    }

    private final SweepRunner runner;
    private final PartitionFilter filter;
    private final Duration every;
    private final Shutdown drain;

    public SweepLoop(SweepRunner runner, PartitionFilter filter, Duration every, Shutdown drain) {
        this.runner = runner;
        this.filter = filter;
        this.every = every;
        this.drain = drain;
    }

    /** A listener from two callbacks (partition results as they complete, then the sweep's report). */
    public static Listener listener(Consumer<PartitionResult> partition, Consumer<SweepReport> finished) {
        return new Listener() {
            @Override
            public void partition(PartitionResult result) {
                partition.accept(result);
            }

            @Override
            public void finished(long sweep, SweepReport report) {
                finished.accept(report);
            }
        };
    }

    /** Runs until a stop is requested; returns after the sweep in progress then has finished. */
    public void run(Listener listener) throws InterruptedException {
        drain.whenStopping(runner::requestStop);
        for (long sweep = 1; !drain.stopRequested(); sweep++) {
            listener.started(sweep);
            SweepReport report = runner.sweep(filter, listener::partition);
            listener.finished(sweep, report);
            drain.sleep(every);
        }
    }
}
