package dev.ourios.bench.soak;

import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.table.CommitKind;
import dev.ourios.table.PartitionFilter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The compaction daemon as {@code ourios compact} runs it (the CLI's SweepLoop): sweep, wait {@code every}, repeat,
 * on its own thread, until stopped. Stopping lets the sweep in progress finish (unlike SIGTERM's requestStop, which
 * would skip its remaining partitions), so the tallies are whole sweeps.
 */
public final class SoakDaemon {
    private static final int KEPT_ERRORS = 5;

    private final SweepRunner runner;
    private final Duration every;
    private final Object lock = new Object();
    private long sweeps;
    private long committed;
    private long noops;
    private long errors;
    private long rowsIn;
    private final List<String> firstErrors = new ArrayList<>();
    private final Map<String, CompactionTally.Rewrites> byTenant = new TreeMap<>();
    private Periodic periodic;

    public SoakDaemon(SweepRunner runner, Duration every) {
        this.runner = runner;
        this.every = every;
    }

    public void start() {
        periodic = new Periodic("soak-compactor", every, this::sweepOnce);
        periodic.start();
    }

    /** Stops after the sweep in progress and waits for it. */
    public void stop() throws InterruptedException {
        if (periodic != null) {
            periodic.stop();
        }
    }

    /** Runs one sweep on the caller's thread (the final sweep after the daemon has stopped). */
    public SweepReport sweepOnce() {
        SweepReport r = runner.sweep(PartitionFilter.all(), p -> {
        });
        synchronized (lock) {
            sweeps++;
            for (PartitionResult p : r.partitions()) {
                switch (p.result()) {
                    case COMMITTED -> {
                        committed++;
                        rowsIn += p.rows();
                        boolean rollup = p.action() == CommitKind.ROLLUP;
                        byTenant.merge(p.partition().tenantId(), new CompactionTally.Rewrites(rollup ? 0 : p.rows(),
                                rollup ? p.rows() : 0), CompactionTally.Rewrites::plus);
                    }
                    case NOOP -> noops++;
                    case ERROR -> error(p.partition() + ": " + p.error());
                }
            }
            r.errors().forEach(this::error);
        }
        return r;
    }

    private void error(String message) {
        errors++;
        if (firstErrors.size() < KEPT_ERRORS) {
            firstErrors.add(message);
        }
    }

    public CompactionTally tally() {
        synchronized (lock) {
            return new CompactionTally(sweeps, committed, noops, errors, rowsIn, firstErrors, byTenant);
        }
    }
}
