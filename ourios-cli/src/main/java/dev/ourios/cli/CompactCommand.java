package dev.ourios.cli;

import dev.ourios.cli.config.FlagDefaults;
import dev.ourios.server.lifecycle.Shutdown;
import dev.ourios.server.sweep.SweepLoop;
import dev.ourios.server.telemetry.Telemetry;
import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.SweepSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.PlanDecision;
import dev.ourios.compaction.share.ShareSampler;
import dev.ourios.compaction.sweep.Shard;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.Retention;
import dev.ourios.iceberg.IcebergWiring;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.CommitKind;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.store.StoreRequests;
import dev.ourios.table.PartitionFilter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ourios compact}: one sweep with {@code --once}, otherwise a daemon that sweeps every {@code --interval}.
 * SIGTERM stops the daemon between partitions: nothing new starts, running compactions finish, exit 0.
 */
@Command(name = "compact", mixinStandardHelpOptions = true, defaultValueProvider = FlagDefaults.Compaction.class,
        description = "Compact every sealed candidate partition (one sweep with --once, else a daemon)")
public final class CompactCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(CompactCommand.class);

    @Mixin
    StoreOptions store;

    @Mixin
    CompactionFlags flags;

    @Mixin
    ScopeFlags scope;

    @Option(names = "--once", description = "Run one sweep and exit")
    boolean once;

    @Option(names = "--interval", description = "Time between daemon sweeps (default ${DEFAULT-VALUE})")
    String interval;

    @Option(names = "--now", paramLabel = "TIME", description = "Plan as of this time (RFC 3339) instead of the clock")
    String now;

    @Option(names = "--dry-run", description = "Show the plan and change nothing")
    boolean dryRun;

    @Option(names = "--json", description = "One JSON line per partition, then a summary line")
    boolean json;

    @Option(names = "--shard", paramLabel = "i/N", description = "Compact only the partitions of shard i of N "
            + "(by a stable hash of tenant and hour), for several compactors on one store, and this shard's group of "
            + "any hour large enough to be cut into shares; GC still covers all")
    String shard;

    @Override
    public Integer call() throws Exception {
        CompactionOptions options = flags.toOptions();
        Duration every = Units.parseDuration("--interval", interval);
        if (!once && every.isZero()) {
            throw new UsageException("--interval must be positive");
        }
        Clock planClock = now == null ? Clock.systemUTC()
                : Clock.fixed(Units.parseTime("--now", now), ZoneOffset.UTC);
        PartitionFilter filter = scope.toFilter();
        Shard slice;
        try {
            slice = shard == null ? Shard.ALL : Shard.parse(shard);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Output out = Output.system();
        // Opened first so it closes last: a SIGTERM halts with 0 only after telemetry below is flushed.
        try (Shutdown drain = once || dryRun ? Shutdown.none()
                        : Shutdown.onSignal(Duration.ofMinutes(10), msg -> LOG.warn("{}", msg));
                ObjectStore s = store.open();
                Telemetry telemetry = Telemetry.open(TelemetryEnvironment.read(System.getenv()))) {
            SweepRunner runner = CompactionWiring.sweepRunner(SweepSettings.of(s, options).withPlanClock(planClock)
                    .withMeters(telemetry.meterProvider()).withGcDryRun(dryRun).withShard(slice)
                    .withFileRetention(IcebergWiring.retention(IcebergWiring.view(s, store.uri()), Clock.systemUTC())));
            if (dryRun) {
                return dryRun(runner, filter, out);
            }
            if (once) {
                SweepReport report = runner.sweep(filter, r -> print(out, r));
                printSummary(out, report);
                return report.hasErrors() ? 1 : 0;
            }
            return daemon(runner, filter, every, out, drain);
        }
    }

    private int daemon(SweepRunner runner, PartitionFilter filter, Duration every, Output out, Shutdown drain)
            throws InterruptedException {
        LOG.info("compaction daemon started: sweeping every {}", every);
        // SIGTERM: running partitions finish, nothing new starts, the loop returns, exit 0
        new SweepLoop(runner, filter, every, drain).run(SweepLoop.listener(r -> print(out, r),
                report -> printSummary(out, report)));
        LOG.info("compaction daemon stopped");
        return 0;
    }

    /**
     * What a plan writes, as far as its plan knows before reading a row: one file, a band when its inputs pass the
     * largest file (the output is about as large), or shares (storage.md 4.14) when they hold four times it.
     */
    private static String expectedOutput(CompactionPlan plan, String maxFile) {
        int shares = ShareSampler.shareCount(plan.bytesIn(), plan.maxFileBytes());
        if (shares >= 2) {
            return shares + " shares, files of at most " + maxFile;
        }
        return plan.bytesIn() > plan.maxFileBytes() ? "a band of files of at most " + maxFile : "1 file";
    }

    private int dryRun(SweepRunner runner, PartitionFilter filter, Output out) {
        List<String> errors = new ArrayList<>();
        List<PlanDecision> decisions = runner.plan(filter, errors);
        List<PartitionSnapshot> expiries = runner.expiries(filter, errors);
        for (PartitionSnapshot s : expiries) {
            String why = "retention " + Retention.format(runner.retention().forTenant(s.partition().tenantId())
                    .orElseThrow());
            if (json) {
                var o = Output.obj();
                o.put("tenant", s.partition().tenantId());
                o.put("partition", s.partition().hourLabel());
                o.put("result", "planned");
                o.put("action", CommitKind.EXPIRE.label());
                o.put("files_in", s.live().size());
                o.put("bytes_in", s.liveBytes());
                o.put("generation", s.generation());
                o.put("reason", why);
                out.jsonLine(o);
            } else {
                out.out().printf("%-20s %s  %3d files  %10s  -> expire  [%s]%n", s.partition().tenantId(),
                        s.partition().hourLabel(), s.live().size(), Units.formatBytes(s.liveBytes()), why);
            }
        }
        long candidates = 0;
        long bytes = 0;
        for (PlanDecision d : decisions) {
            if (!d.isCandidate()) {
                continue;
            }
            var plan = d.plan().orElseThrow();
            candidates++;
            bytes += plan.bytesIn();
            if (json) {
                var o = Output.obj();
                o.put("tenant", plan.partition().tenantId());
                o.put("partition", plan.partition().hourLabel());
                o.put("result", "planned");
                o.put("action", CommitKind.COMPACT.label());
                o.put("files_in", plan.inputs().size());
                o.put("bytes_in", plan.bytesIn());
                o.put("generation", plan.baseGeneration());
                o.put("expected_output", expectedOutput(plan, Long.toString(plan.maxFileBytes()) + " bytes")
                        + ", row groups of " + plan.rowGroupBytes() + " bytes");
                o.put("shares", ShareSampler.shareCount(plan.bytesIn(), plan.maxFileBytes()));
                o.put("reason", d.reason());
                out.jsonLine(o);
            } else {
                out.out().printf("%-20s %s  %3d files  %10s  -> %s (row groups %s)  [%s]%n",
                        TableText.escape(plan.partition().tenantId()), plan.partition().hourLabel(),
                        plan.inputs().size(), Units.formatBytes(plan.bytesIn()),
                        expectedOutput(plan, Units.formatBytes(plan.maxFileBytes())),
                        Units.formatBytes(plan.rowGroupBytes()), d.reason());
            }
        }
        for (String e : errors) {
            out.err().println("ourios: " + e);
        }
        if (json) {
            out.jsonLine(Map.of("summary", Map.of("dry_run", true, "partitions", decisions.size(),
                    "candidates", candidates, "bytes_in", bytes, "expiries", expiries.size(),
                    "errors", errors.size())));
        } else {
            out.out().printf("dry run: %d partitions, %d candidates, %s to rewrite%s; nothing changed%n",
                    decisions.size(), candidates, Units.formatBytes(bytes),
                    expiries.isEmpty() ? "" : ", " + expiries.size() + " to expire");
        }
        return errors.isEmpty() ? 0 : 1;
    }

    private void print(Output out, PartitionResult r) {
        if (json) {
            out.jsonLine(PartitionJson.of(r));
        } else if (r.result() == PartitionResult.Result.ERROR) {
            out.err().println("ourios: " + r.error());
        } else {
            out.out().printf("%-20s %s  %-9s %3d files  %9d rows  %10s -> %10s  gen %d%s%n",
                    TableText.escape(r.partition().tenantId()), where(r), label(r),
                    r.filesIn(), r.rows(),
                    Units.formatBytes(r.bytesIn()), Units.formatBytes(r.bytesOut()), r.generation(),
                    r.reason() == null ? "" : "  (" + r.reason() + ")");
        }
    }

    /** The hour, or for a day partition's outcome its day ({@code YYYY-MM-DD day}, as wide as an hour's label). */
    private static String where(PartitionResult r) {
        return r.day() ? PartitionJson.label(r) + " day" : r.partition().hourLabel();
    }

    /** {@code committed}, {@code noop}, or {@code expired} for a committed expiry. */
    private static String label(PartitionResult r) {
        return r.action() == CommitKind.EXPIRE && r.result() == PartitionResult.Result.COMMITTED ? "expired"
                : r.result().label();
    }

    private void printSummary(Output out, SweepReport report) {
        for (String e : report.errors()) {
            out.err().println("ourios: " + e);
        }
        if (json) {
            var s = Output.obj();
            s.put("result", report.overall().label());
            s.put("committed", report.count(PartitionResult.Result.COMMITTED));
            s.put("noop", report.count(PartitionResult.Result.NOOP));
            s.put("expired", report.partitions().stream().filter(p -> p.action() == CommitKind.EXPIRE
                    && p.result() == PartitionResult.Result.COMMITTED).count());
            s.put("error", report.count(PartitionResult.Result.ERROR) + report.errors().size());
            s.put("rows", report.partitions().stream().mapToLong(PartitionResult::rows).sum());
            s.put("bytes_in", report.partitions().stream().filter(p -> p.result() == PartitionResult.Result.COMMITTED)
                    .mapToLong(PartitionResult::bytesIn).sum());
            s.put("bytes_out", report.partitions().stream().filter(p -> p.result() == PartitionResult.Result.COMMITTED)
                    .mapToLong(PartitionResult::bytesOut).sum());
            s.put("requests", PartitionJson.requests(report.partitions().stream()
                    .flatMap(p -> p.requests().stream()).reduce(StoreRequests.NONE, StoreRequests::plus)));
            s.put("gc_deleted", report.gcDeleted());
            s.put("gc_bytes", report.gcBytesReclaimed());
            s.put("seconds", Math.round(report.seconds() * 1000) / 1000.0);
            s.put("at", Instant.now().toString());
            out.jsonLine(Map.of("summary", s));
        } else {
            out.out().printf("sweep: %d committed, %d noop, %d error; GC deleted %d (%s) in %.2f s%n",
                    report.count(PartitionResult.Result.COMMITTED), report.count(PartitionResult.Result.NOOP),
                    report.count(PartitionResult.Result.ERROR) + report.errors().size(), report.gcDeleted(),
                    Units.formatBytes(report.gcBytesReclaimed()), report.seconds());
        }
    }
}
