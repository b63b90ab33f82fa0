package dev.ourios.bench.soak;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Samples the run every {@code every} on its own thread: the writer's counters, a store survey, the daemon's
 * compactions and one run of each probe query. The queries run against the live store while the writer lands
 * files and the daemon commits, so a failing query is a finding, counted, not a reason to stop.
 */
public final class Sampler {
    private final StoreSurvey survey;
    private final QueryProbe probe;
    private final SoakWriter writer;
    private final SoakDaemon daemon;
    private final SoakClock clock;
    private final Duration every;
    private final Consumer<String> log;
    private final List<Sample> samples = new ArrayList<>();
    private final List<String> queryErrors = new ArrayList<>();
    private Periodic periodic;

    public Sampler(StoreSurvey survey, QueryProbe probe, SoakWriter writer, SoakDaemon daemon, SoakClock clock,
            Duration every, Consumer<String> log) {
        this.survey = survey;
        this.probe = probe;
        this.writer = writer;
        this.daemon = daemon;
        this.clock = clock;
        this.every = every;
        this.log = log;
    }

    public void start() {
        periodic = new Periodic("soak-sampler", every, () -> {
            try {
                sample();
            } catch (RuntimeException e) {
                synchronized (queryErrors) {
                    queryErrors.add(e.toString());
                }
            }
        });
        periodic.start();
    }

    /** Stops the periodic samples (the one in progress finishes). */
    public void stop() throws InterruptedException {
        if (periodic != null) {
            periodic.stop();
        }
    }

    /** Takes one sample now and returns its survey (the drain phase polls the backlog with it). */
    public Sample sample() {
        try {
            Survey s = survey.take();
            QueryProbe.Timing t = timed(true);
            QueryProbe.Timing w = timed(false);
            Sample out = new Sample(clock.wallSeconds(), clock.instant().toString(), writer.progress(), s,
                    daemon.tally().committed(), t, w,
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            synchronized (samples) {
                samples.add(out);
            }
            log.accept(String.format("%6.1fs  sim %s  landed %d files %d rows  partitions %d sealed %d backlog %d"
                    + "  live %d files %.1f MiB  compactions %d  template %.1f ms  service %.1f ms  load %.1f", out.wallSeconds(),
                    out.simTime(), out.ingest().files(), out.ingest().rows(), s.partitions(), s.sealed(), s.backlog(),
                    s.liveFiles(), s.liveBytes() / 1048576.0, out.compactions(), t.ms(), w.ms(), out.loadAverage()));
            return out;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("survey failed: " + e.getMessage(), e);
        }
    }

    private QueryProbe.Timing timed(boolean template) {
        try {
            return template ? probe.templateExact() : probe.serviceWindow();
        } catch (IOException | RuntimeException e) {
            synchronized (queryErrors) {
                queryErrors.add((template ? "template-exact: " : "service window: ") + e);
            }
            return new QueryProbe.Timing(-1, -1, -1); // excluded from the percentiles
        }
    }

    public List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    public List<String> queryErrors() {
        synchronized (queryErrors) {
            return List.copyOf(queryErrors);
        }
    }
}
