package dev.ourios.server.status;

import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.server.sweep.SweepLoop;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * The last {@link #KEPT} sweeps' results and durations, for the status page; passes every event on to the listener
 * it wraps (the event log), so recording changes nothing the log shows.
 *
 * <p>Internal to ourios-server: public so that {@link dev.ourios.server.Server} can assemble it.
 */
public final class SweepHistory implements SweepLoop.Listener {
    /** How many sweeps are kept. */
    public static final int KEPT = 10;

    /** One finished sweep. */
    public record Sweep(long sweep, Instant started, Instant finished, double seconds, String result, long committed,
            long noop, long errors, int gcDeleted, long gcBytes) {
    }

    private final SweepLoop.Listener next;
    private final Clock clock;
    private final Deque<Sweep> kept = new ArrayDeque<>();
    private Instant started;

    public SweepHistory(SweepLoop.Listener next, Clock clock) {
        this.next = Objects.requireNonNull(next, "next");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void started(long sweep) {
        synchronized (this) {
            started = clock.instant();
        }
        next.started(sweep);
    }

    @Override
    public void partition(PartitionResult result) {
        next.partition(result);
    }

    @Override
    public void finished(long sweep, SweepReport report) {
        Instant end = clock.instant();
        synchronized (this) {
            Instant begin = started == null ? end.minusMillis((long) (report.seconds() * 1000)) : started;
            kept.addFirst(new Sweep(sweep, begin, end, report.seconds(), report.overall().label(),
                    report.count(PartitionResult.Result.COMMITTED), report.count(PartitionResult.Result.NOOP),
                    report.count(PartitionResult.Result.ERROR) + report.errors().size(), report.gcDeleted(),
                    report.gcBytesReclaimed()));
            while (kept.size() > KEPT) {
                kept.removeLast();
            }
        }
        next.finished(sweep, report);
    }

    /** The kept sweeps, newest first. */
    public synchronized List<Sweep> last() {
        return new ArrayList<>(kept);
    }
}
