package dev.ourios.bench;

import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.SweepSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.query.LiveFiles;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.ReadSide;
import dev.ourios.query.aggregate.CountsOverTime;
import dev.ourios.query.aggregate.CountsRequest;
import dev.ourios.query.aggregate.GroupField;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.PartitionFilter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Counts over time against DuckDB: "a day's error volume per minute by service" over a compacted day (24 hour
 * partitions of demo-shaped rows, one sweep), ours through {@link CountsOverTime} ({@code severity:>=error}, step 1m,
 * grouped by service, every service reported) and DuckDB 2 threads through {@code GROUP BY time_bucket} over the same
 * live files; in-process, warm (at least twenty warm-up rounds, and at least three seconds of them), alternating,
 * medians. Both must count the same rows,
 * bucket by bucket.
 */
public final class StatsDuckDbSuite implements Suite {
    /** Rows per ingest file at scale 1 (8 files an hour, 24 hours: about 4.8 million rows). */
    static final long FULL_ROWS_PER_FILE = 25_000;
    static final int FILES_PER_HOUR = 8;
    static final int HOURS = 24;
    /** Warm-up time at least, both engines alternating (see {@link #run}). */
    static final long WARM_UP_NANOS = 3_000_000_000L;
    /** Warm-up rounds at least (see {@link #run}). */
    static final int MIN_WARM_UPS = 20;

    @Override
    public String name() {
        return "stats-duckdb";
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        int rowsPerFile = ctx.scaled(FULL_ROWS_PER_FILE, 100);
        Path root = ctx.fixtures().scratch("stats-duckdb-day");
        LocalObjectStore store = new LocalObjectStore(root);
        GeneratorSpec spec = GeneratorSpec.of(List.of(Fixtures.TENANT), Fixtures.HOUR, HOURS, FILES_PER_HOUR,
                rowsPerFile, 36);
        LogGenerator gen = new LogGenerator(spec);
        Uuid7 names = Uuid7.system();
        for (int h = 0; h < HOURS; h++) {
            PartitionKey p = gen.partition(Fixtures.TENANT, h);
            for (int f = 0; f < FILES_PER_HOUR; f++) {
                try (LogFileWriter w = new LogFileWriter(store.create(p.dataPrefix() + names.next() + ".parquet"),
                        WriterOptions.ingest())) {
                    for (Iterator<LogRecord> it = gen.stream(Fixtures.TENANT, h, f); it.hasNext(); ) {
                        w.write(it.next());
                    }
                    w.commit();
                }
            }
        }
        ctx.log().accept("stats-duckdb: " + HOURS + " hours x " + FILES_PER_HOUR + " files x " + rowsPerFile
                + " rows landed; compacting");
        CompactionOptions opts = CompactionOptions.defaults(ctx.fixtures().scratch("stats-duckdb-scratch"))
                .withGcGrace(Duration.ofDays(3650));
        SweepReport sweep = CompactionWiring.sweepRunner(SweepSettings.of(store, opts).withPlanClock(Partitions.LATER))
                .sweep(PartitionFilter.all(), r -> { });
        if (sweep.hasErrors()) {
            throw new IllegalStateException("sweep failed: " + sweep);
        }
        ReadSide reads = ReadSide.over(store); // composed as `ourios serve` composes its own
        Instant from = Fixtures.HOUR;
        Instant to = from.plus(Duration.ofHours(HOURS));
        List<Path> files = new ArrayList<>();
        long bytes = 0;
        for (LiveFiles.LiveFile f : reads.liveFiles().list(Fixtures.TENANT, Optional.of(from),
                Optional.of(to))) {
            files.add(root.resolve(f.key()));
            bytes += f.size();
        }
        QueryEngine engine = reads.queryEngine(MeterProvider.noop());
        QuietStores.await(store);
        CountsRequest request = new CountsRequest(Query.tenant(Fixtures.TENANT).window(from, to).severityMin(17),
                from, to, Duration.ofMinutes(1), List.of(GroupField.parse("service")), 100);
        String sql = "SELECT time_bucket(INTERVAL '1 minute', effective_time_unix_nano::TIMESTAMPTZ) AS minute, "
                + "\"resource.service.name\" AS service, count(*) AS n FROM read_parquet("
                + DuckDbContender.list(files) + ") WHERE severity_number >= 17 GROUP BY minute, service";
        // "Warm" means the JIT has compiled our scan, as DuckDB's native code needs no warming: at least MIN_WARM_UPS
        // rounds, and at least WARM_UP_NANOS of them, at any scale. At scale 0.25 five rounds take well under a second,
        // and the rounds after them still run partly interpreted or C1-compiled code (a fresh process's rounds 8 to 14
        // cost about three times the CPU of its 200th round, more on a busy machine).
        int warmups = Math.max(MIN_WARM_UPS, ctx.scaled(3, 1));
        int iterations = Math.max(9, ctx.scaled(15, 3));
        List<Double> oursMs = new ArrayList<>();
        List<Double> duckMs = new ArrayList<>();
        CountsOverTime.Counts counts = null;
        long duckTotal = 0;
        long duckGroups = 0;
        try (Connection c = DuckDbContender.connect(); Statement s = c.createStatement()) {
            s.execute("SET threads=2");
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                long warmUntil = System.nanoTime() + WARM_UP_NANOS;
                for (int i = 0; i < warmups; i++) {
                    if (i == warmups - 1 && System.nanoTime() < warmUntil) {
                        warmups++; // another warm-up round: the time floor is not reached yet
                    }
                    new CountsOverTime(engine).run(request);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            rs.getLong(3);
                        }
                    }
                }
                for (int i = 0; i < iterations; i++) {
                    for (int side = 0; side < 2; side++) {
                        boolean oursNow = (side == 0) == (i % 2 == 0);
                        long t0 = System.nanoTime();
                        if (oursNow) {
                            counts = new CountsOverTime(engine).run(request);
                        } else {
                            duckTotal = 0;
                            duckGroups = 0;
                            try (ResultSet rs = ps.executeQuery()) {
                                while (rs.next()) {
                                    duckTotal += rs.getLong(3);
                                    duckGroups++;
                                }
                            }
                        }
                        (oursNow ? oursMs : duckMs).add((System.nanoTime() - t0) / 1e6);
                    }
                }
            }
        }
        long oursGroups = 0;
        for (CountsOverTime.Series series : counts.series()) {
            for (long n : series.counts()) {
                oursGroups += n > 0 ? 1 : 0;
            }
        }
        if (counts.total() != duckTotal || oursGroups != duckGroups) {
            throw new IllegalStateException("ours counted " + counts.total() + " rows in " + oursGroups
                    + " (minute, service) cells, DuckDB " + duckTotal + " in " + duckGroups + " (" + sql + ")");
        }
        Samples a = new Samples(oursMs);
        Samples b = new Samples(duckMs);
        SuiteReport.Builder report = new SuiteReport.Builder(name(), ctx.options().command())
                .shape(HOURS + " hour partitions x " + FILES_PER_HOUR + " demo files x " + rowsPerFile
                        + " rows, one sweep: " + files.size() + " live files, " + bytes + " bytes");
        report.row(row("ours", counts.total(), oursGroups, a));
        report.row(row("duckdb-2t", duckTotal, duckGroups, b));
        report.note(String.format("a day's error volume per minute by service: DuckDB median / ours median = %.2f "
                + "(> 1: ours is faster)", b.median() / a.median()));
        report.note("ours: CountsOverTime, severity:>=error (severity_min 17), step 1m, group_by service, max_groups "
                + "100, counted on columns alone; DuckDB: SET threads=2, `" + sql.replace(DuckDbContender.list(files),
                "[live files]") + "`, every result row read. Warm: " + warmups + " warm-up rounds (at least " + MIN_WARM_UPS
                + ", and at least "
                + WARM_UP_NANOS / 1_000_000_000L + " s of them), then "
                + iterations + " alternating.");
        return report.build();
    }

    private static Map<String, Object> row(String engine, long rows, long cells, Samples ms) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("engine", engine);
        row.put("rows counted", rows);
        row.put("(minute, service) cells", cells);
        row.put("median ms", ms.median());
        row.put("min ms", ms.min());
        row.put("max ms", ms.max());
        return row;
    }
}
