package dev.ourios.bench.soak;

import dev.ourios.bench.Machine;
import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.SweepSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * One soak: the writer lands the schedule while the compaction daemon sweeps and the sampler measures; then the
 * writer stops, the daemon drains the backlog, one final sweep runs, and every row is audited.
 */
public final class SoakRun {
    /** Simulated runs start at a fixed hour so that two runs with the same seed land the same rows. */
    static final Instant SIMULATED_START = Instant.parse("2026-03-01T00:00:00Z");
    private static final String MARKER = ".ourios-soak";

    private final SoakOptions o;
    private final Consumer<String> log;

    public SoakRun(SoakOptions options, Consumer<String> log) {
        this.o = options;
        this.log = log;
    }

    public SoakResult run() throws IOException, InterruptedException {
        Path root = prepare(o.store());
        Instant now = Instant.now();
        Instant firstHour = o.realTime() ? now.truncatedTo(ChronoUnit.HOURS) : SIMULATED_START;
        // Real time: the clock reads the wall clock. Simulated: it starts at hour 0 and runs speed() times faster.
        SoakClock clock = o.realTime() ? SoakClock.startingAt(now, 1) : SoakClock.startingAt(firstHour, o.speed());
        SoakTenants soakTenants = SoakTenants.of(o, firstHour);
        List<String> tenants = soakTenants.names();
        LogGenerator generator = soakTenants.generator(tenants.get(0));

        LocalObjectStore store = new LocalObjectStore(root.resolve("store"));
        TableLayout layout = new TableLayout(store);
        TableReader tables = new TableReader(store, new ManifestCodec());
        CompactionOptions defaults = CompactionOptions.defaults(root.resolve("scratch"));
        CompactionOptions copts = new CompactionOptions(o.grace(), defaults.minFiles(), defaults.smallFileBytes(),
                defaults.sortBudgetBytes(), defaults.fanIn(), RowGroupSizing.parseEnv(System.getenv(RowGroupSizing.ENV)),
                1, o.gcGrace(), defaults.scratchDir(), defaults.ioRates()).withMaxTailRatio(o.maxTailRatio())
                .withSmallFileBytes(o.smallFileBytes()).withMaxFileBytes(o.maxFileBytes()).withRollup(o.rollup());
        // The plan clock is the soak clock; GC ages and commit timestamps use the real clock (they compare with
        // file modification times).
        SweepRunner runner = CompactionWiring.sweepRunner(SweepSettings.of(store, copts).withPlanClock(clock));
        SoakDaemon daemon = new SoakDaemon(runner, o.sweepEvery());
        SoakWriter writer = new SoakWriter(new IngestWriter(store), soakTenants, tables, clock, o.writers());
        QueryProbe probe = new QueryProbe(new QueryEngine(store, layout, tables, MeterProvider.noop()), generator,
                tenants.get(0), firstHour, firstHour.plus(Duration.ofHours(o.hours() - 1)), clock, o.grace());
        StoreSurvey survey = new StoreSurvey(layout, tables, runner, clock, o.grace());
        Sampler sampler = new Sampler(survey, probe, writer, daemon, clock, o.sampleEvery(), log);

        List<Landing> schedule = LandingSchedule.build(tenants, firstHour, o.hours(), o.filesPerHour(),
                o.lateFiles(), o.grace()).stream().filter(l -> !l.at().isBefore(now) || !o.realTime()).toList();
        long scheduledRows = schedule.stream().mapToLong(l -> soakTenants.rowsPerFile(l.tenant())).sum();
        Instant origin = o.realTime() ? now : firstHour;
        double scheduleSeconds = (clock.wallNanosAt(schedule.get(schedule.size() - 1).at())
                - clock.wallNanosAt(origin)) / 1e9;
        log.accept(String.format("soak: %d tenants, %d hours, %d files/tenant-hour + %d late, %s rows/file, "
                + "%d files scheduled, clock x%.0f", tenants.size(), o.hours(), o.filesPerHour(), o.lateFiles(),
                soakTenants.rowsPerFileText(), schedule.size(), clock.speed()));

        daemon.start();
        sampler.start();
        writer.run(schedule);
        double ingestSeconds = clock.wallSeconds();
        log.accept(String.format("ingest done after %.1f s; draining", ingestSeconds));

        Instant allSealed = firstHour.plus(Duration.ofHours(o.hours())).plus(o.grace());
        double drainSeconds = drain(survey, clock, allSealed, ingestSeconds);
        sampler.stop();
        daemon.stop();
        daemon.sweepOnce(); // the final sweep: folds in anything the drain check raced with
        Sample last = sampler.sample();
        RowAudit.Result audit = new RowAudit(store, layout, tables).check(writer.landed());
        log.accept("audit: landed " + audit.landed() + ", live " + audit.live());
        Map<String, String> classes = new LinkedHashMap<>();
        tenants.forEach(t -> classes.put(t, soakTenants.classOf(t)));
        CompactionTally tally = daemon.tally();
        List<TenantFiles.Share> shares = new TenantFiles(layout, tables, o.smallFileBytes()).measure(classes,
                TenantFiles.rowsByTenant(writer.landed()), writer.bytesByTenant(), tally.byTenant());
        return result(o, probe, writer.progress(), scheduledRows / scheduleSeconds, ingestSeconds,
                drainSeconds, tally, sampler, last, audit, shares, soakTenants.rowsPerFileText(),
                soakTenants.rowsPerFile(tenants.get(0)));
    }

    /**
     * Waits until every hour is sealed and the backlog is zero; returns the wall seconds that took. Polls the
     * survey only (the sampler keeps timing queries meanwhile): polling with the queries would steal the CPU the
     * draining compactor needs.
     */
    private double drain(StoreSurvey survey, SoakClock clock, Instant allSealed, double ingestSeconds)
            throws InterruptedException, IOException {
        long deadline = System.nanoTime() + o.drainTimeout().toNanos();
        while (System.nanoTime() < deadline) {
            if (!clock.instant().isBefore(allSealed) && survey.take().backlog() == 0) {
                return clock.wallSeconds() - ingestSeconds;
            }
            Thread.sleep(Math.max(50, o.sweepEvery().toMillis() / 2));
        }
        return -1;
    }

    private SoakResult result(SoakOptions o, QueryProbe probe, IngestProgress ingest, double scheduledRate,
            double ingestSeconds, double drainSeconds, CompactionTally tally, Sampler sampler, Sample last,
            RowAudit.Result audit, List<TenantFiles.Share> shares, String rowsPerFile,
            int firstRowsPerFile) {
        List<Sample> samples = new ArrayList<>(sampler.samples());
        Survey fin = last.store();
        long backlogMax = samples.stream().mapToLong(s -> s.store().backlog()).max().orElse(0);
        double achieved = ingest.rows() / ingestSeconds;
        boolean sustained = achieved >= 0.98 * scheduledRate
                && ingest.maxLagSeconds() * o.speed() < o.grace().toSeconds();
        long expectedPartitions = (long) shares.size() * o.hours();
        // A covered hour keeps no file of its own once the final sweep rolled its late files in; an hour left
        // hourly holds its main file and at most one tail.
        long hourly = fin.partitions() - fin.coveredHours();
        long hourFiles = fin.liveFiles() - fin.dayFiles();
        List<Check> checks = new ArrayList<>(List.of(
                new Check("every landed row is live exactly once (digest)", audit.equal(),
                        "landed " + audit.landed() + ", live " + audit.live() + (audit.mismatches().isEmpty() ? ""
                                : ", " + audit.mismatches().size() + " partitions differ: " + audit.mismatches().get(0))),
                new Check("backlog returns to zero after ingest stops", fin.backlog() == 0 && drainSeconds >= 0,
                        "final backlog " + fin.backlog() + (drainSeconds >= 0
                                ? String.format(", reached %.1f s after the last file", drainSeconds)
                                : ", not reached within " + o.drainTimeout())),
                new Check("one file per partition, or its main file and one tail file, after the final sweep"
                        + (o.rollup() ? " (a covered hour: none, its rows in its day's files)" : ""),
                        hourFiles >= hourly && hourFiles <= 2 * hourly && fin.partitions() == expectedPartitions,
                        fin.liveFiles() + " live files (" + fin.dayFiles() + " of them in " + fin.days()
                                + " day partitions), " + fin.partitions() + " partitions (expected "
                                + expectedPartitions + ", " + fin.coveredHours() + " covered), " + ingest.files()
                                + " ingest files landed"),
                new Check("no compaction errors", tally.errors() == 0,
                        tally.errors() + " errors" + (tally.firstErrors().isEmpty() ? "" : ": " + tally.firstErrors())),
                new Check("no query errors", sampler.queryErrors().isEmpty(),
                        sampler.queryErrors().size() + " errors" + (sampler.queryErrors().isEmpty() ? ""
                                : ": " + sampler.queryErrors().get(0)))));
        if (o.rollup()) {
            checks.addAll(h4Checks(shares, o.smallFileBytes()));
        }
        String shape = String.format("%d tenant(s) x %d hours of OpenTelemetry-demo-shaped rows (15 services); per "
                + "tenant-hour %d on-time ingest files + %d late files (landed in the second half of the next hour), "
                + "%s rows each; clock %s", shares.size(), o.hours(), o.filesPerHour(), o.lateFiles(), rowsPerFile,
                o.realTime() ? "real time" : String.format("simulated, x%.0f (one hour = %s s wall)", o.speed(),
                        fmt(o.hourSeconds())));
        List<Double> tms = samples.stream().map(s -> s.template().ms()).filter(v -> v >= 0).toList();
        List<Double> sms = samples.stream().map(s -> s.service().ms()).filter(v -> v >= 0).toList();
        return new SoakResult(o.command(), Machine.current(), shape, firstRowsPerFile, ingestSeconds, scheduledRate,
                achieved, sustained, ingest, drainSeconds, tally, backlogMax, fin,
                Long.toUnsignedString(probe.templateId()), probe.service(), pct(tms, 50), pct(tms, 95), pct(sms, 50),
                pct(sms, 95), sampler.queryErrors().size(), audit, checks, samples, o.smallFileBytes(), shares);
    }

    /**
     * H4 with the rollup on (docs/spec/storage.md, "Rollup"): a tenant whose whole days hold at least
     * {@code small_file_bytes} keeps fewer than 5 % of their files below it; a tenant with less keeps one file a day.
     */
    static List<Check> h4Checks(List<TenantFiles.Share> shares, long smallFileBytes) {
        List<Check> out = new ArrayList<>();
        for (TenantFiles.Share s : shares) {
            if (s.days() == 0) {
                out.add(new Check("H4 for " + s.tenant() + ": a whole day measured", false, "no whole day"));
            } else if (s.liveBytesPerDay() >= smallFileBytes) {
                out.add(new Check("H4 for " + s.tenant() + " (" + s.tenantClass() + ", at least the small-file "
                        + "bound a day): fewer than 5 % of its files below it", s.shareBelow() < 0.05,
                        String.format(java.util.Locale.ROOT, "%d of %d files below %,d bytes over %d days",
                                s.belowSmall(), s.files(), smallFileBytes, s.days())));
            } else {
                out.add(new Check("H4 for " + s.tenant() + " (" + s.tenantClass() + ", less than the small-file "
                        + "bound a day): one file a day", s.files() == s.days(), String.format(java.util.Locale.ROOT,
                                "%d files over %d days (%,.0f bytes a day)", s.files(), s.days(),
                                s.liveBytesPerDay())));
            }
        }
        return out;
    }

    /** Nearest-rank percentile; -1 when there are no samples. */
    static double pct(List<Double> values, int p) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Double> s = values.stream().sorted().toList();
        int rank = (int) Math.ceil(p / 100.0 * s.size());
        return s.get(Math.max(0, rank - 1));
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /**
     * Creates the run directory, or empties one a previous soak left (it carries a marker); refuses any other
     * non-empty directory rather than deleting someone's data.
     */
    static Path prepare(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            boolean empty;
            try (Stream<Path> s = Files.list(dir)) {
                empty = s.findAny().isEmpty();
            }
            if (!empty && !Files.exists(dir.resolve(MARKER))) {
                throw new IllegalArgumentException("--store " + dir + " is not empty and is not a previous soak's "
                        + "directory; give an empty or new directory");
            }
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    if (!p.equals(dir)) {
                        Files.delete(p);
                    }
                }
            }
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(MARKER), "written by ourios-bench soak; emptied by the next soak\n");
        return dir;
    }
}
