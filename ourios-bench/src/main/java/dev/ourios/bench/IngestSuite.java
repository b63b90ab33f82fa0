package dev.ourios.bench;

import dev.ourios.bench.ingest.DemoRequests;
import dev.ourios.bench.ingest.FileIngest;
import dev.ourios.bench.ingest.HttpRound;
import dev.ourios.bench.ingest.HttpRounds;
import dev.ourios.bench.ingest.LoadResult;
import dev.ourios.bench.ingest.RequestPool;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Ingest throughput: demo-shaped records posted as OTLP protobuf over real HTTP to the receiver {@code serve} runs
 * (default settings: WAL with fsynced group commit, flush to ingest files in a local store) by {@code --clients}
 * client threads for {@code --seconds}; acknowledged records/s, MiB/s and ack latency p50/p99, (a) alone and (b)
 * while the daemon's compaction compacts a sealed 256 MiB partition (at full scale) in the same process; beside
 * them (c) the same records as an OTLP/JSON file through {@code ourios ingest}'s streaming path.
 */
public final class IngestSuite implements Suite {
    static final long COMPACT_FULL_BYTES = 256L << 20;
    static final int COMPACT_FILES = 32;
    static final int POOL_FULL_RECORDS = 1_000_000;
    static final int PER_REQUEST = 512;
    static final int DEFAULT_CLIENTS = 8;
    static final int DEFAULT_SECONDS = 30;
    /** The target the receiver is held to: sustained records/s with ack p99 below {@link #TARGET_P99_MS}. */
    static final double TARGET_RECORDS_PER_S = 100_000;
    static final double TARGET_P99_MS = 100;

    @Override
    public String name() {
        return "ingest";
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        BenchOptions o = ctx.options();
        int seconds = intArg(o, "--seconds", DEFAULT_SECONDS);
        int clients = intArg(o, "--clients", DEFAULT_CLIENTS);
        SuiteReport.Builder report = new SuiteReport.Builder(name(), o.command());

        RequestPool pool = DemoRequests.build(ctx.scaled(POOL_FULL_RECORDS, 2 * PER_REQUEST), PER_REQUEST,
                Instant.now().truncatedTo(ChronoUnit.HOURS), 7);
        Fixture partition = ctx.fixtures().demo(COMPACT_FILES, Fixtures.demoRowsFor(
                (long) (COMPACT_FULL_BYTES * o.scale()), COMPACT_FILES), 1);
        Path file = ctx.fixtures().scratch("ingest-input").resolve("records.jsonl");
        FileIngest.write(pool, file);
        report.shape(String.format("OTLP requests: %,d demo records (15 services) in %,d requests of %d, %,d bytes "
                        + "protobuf (%.0f B/record), cycled by the clients; the same records as one OTLP/JSON file of "
                        + "%,d bytes", pool.records(), pool.requests().size(), PER_REQUEST, pool.protobufBytes(),
                pool.protobufBytes() / (double) pool.records(), pool.jsonBytes()));
        report.shape("compacting beside ingest: " + partition.describe());

        HttpRounds http = new HttpRounds(pool, clients, Duration.ofSeconds(seconds));
        List<HttpRound> alone = new ArrayList<>();
        List<HttpRound> compacting = new ArrayList<>();
        List<FileIngest.Result> files = new ArrayList<>();
        for (int i = 0; i < o.warmups() + o.runs(); i++) {
            boolean timed = i >= o.warmups();
            String round = timed ? "run " + (i - o.warmups() + 1) : "warmup " + (i + 1);
            HttpRound a = http.run(ctx.fixtures().scratch("ingest-http"), null);
            ctx.log().accept("ingest: " + round + " alone: " + describe(a));
            HttpRound b = http.run(ctx.fixtures().scratch("ingest-http"), partition);
            ctx.log().accept("ingest: " + round + " compacting: " + describe(b));
            FileIngest.Result c = FileIngest.run(file, "bench", ctx.fixtures().scratch("ingest-file"));
            ctx.log().accept(String.format("ingest: %s file: %,d rows in %.2f s", round, c.rows(), c.seconds()));
            if (timed) {
                alone.add(a);
                compacting.add(b);
                files.add(c);
            }
        }
        report.row(httpRow("OTLP/HTTP, alone", clients, alone));
        report.row(httpRow("OTLP/HTTP, compacting", clients, compacting));
        report.row(fileRow(files));
        notes(report, alone, compacting, seconds);
        return report.build();
    }

    private static Map<String, Object> httpRow(String variant, int clients, List<HttpRound> rounds) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("variant", variant);
        row.put("clients", clients);
        row.put("records", rounds.get(rounds.size() - 1).load().records());
        row.put("records/s", Math.round(median(rounds, r -> r.load().recordsPerSecond())));
        row.put("min–max records/s", String.format("%,.0f–%,.0f", min(rounds, r -> r.load().recordsPerSecond()),
                max(rounds, r -> r.load().recordsPerSecond())));
        row.put("MiB/s", median(rounds, r -> r.load().mibPerSecond()));
        row.put("records/s to files", Math.round(median(rounds, HttpRound::recordsPerSecondToFiles)));
        row.put("ack p50 ms", median(rounds, r -> r.load().p50Ms()));
        row.put("ack p99 ms", median(rounds, r -> r.load().p99Ms()));
        row.put("ack max ms", median(rounds, r -> r.load().maxMs()));
        row.put("refused", rounds.stream().mapToLong(r -> r.load().refused() + r.load().failed()).sum());
        row.put("fsyncs/s", median(rounds, r -> r.walSyncs() / r.load().seconds()));
        row.put("drain s", median(rounds, HttpRound::drainSeconds));
        row.put("rows landed", rounds.get(rounds.size() - 1).rowsLanded());
        double compaction = median(rounds, HttpRound::compactionSeconds);
        row.put("compaction s", compaction < 0 ? null : compaction);
        return row;
    }

    private static Map<String, Object> fileRow(List<FileIngest.Result> files) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("variant", "file, `ourios ingest` path");
        row.put("records", files.get(files.size() - 1).rows());
        row.put("records/s", Math.round(medianOf(files.stream().map(FileIngest.Result::recordsPerSecond).toList())));
        row.put("min–max records/s", String.format("%,.0f–%,.0f",
                files.stream().mapToDouble(FileIngest.Result::recordsPerSecond).min().orElseThrow(),
                files.stream().mapToDouble(FileIngest.Result::recordsPerSecond).max().orElseThrow()));
        row.put("MiB/s", medianOf(files.stream().map(FileIngest.Result::mibPerSecond).toList()));
        row.put("rows landed", files.get(files.size() - 1).rows());
        return row;
    }

    private static void notes(SuiteReport.Builder report, List<HttpRound> alone, List<HttpRound> compacting,
            int seconds) {
        double rate = median(alone, r -> r.load().recordsPerSecond());
        double p99 = median(alone, r -> r.load().p99Ms());
        report.note(String.format("Target: %,.0f records/s sustained with ack p99 under %.0f ms; alone: %,.0f "
                        + "records/s, p99 %.1f ms (%s).", TARGET_RECORDS_PER_S, TARGET_P99_MS, rate, p99,
                rate >= TARGET_RECORDS_PER_S && p99 < TARGET_P99_MS ? "met" : "not met"));
        report.note("records/s and MiB/s: records and protobuf bytes acknowledged (200) within the " + seconds
                + " s window, per second; ack latency from send to the 200 of each acknowledged request. refused: "
                + "requests answered 429/503 or failed. The clients (JDK HttpClient, HTTP/1.1, one request in flight "
                + "each) run in the receiver's JVM and share its cores, so these figures are a floor for the "
                + "receiver alone.");
        report.note("records/s to files: the acknowledged records over the window plus the drain that flushes the "
                + "rest, i.e. the rate at which records reach published files when the load stops at the window's "
                + "end; an acknowledgement needs only the WAL's fsync, flushing to Parquet follows behind.");
        report.note("Receiver settings are `serve`'s defaults: flush at 16 MiB or 2 s, 4 decode threads. drain s: "
                + "SIGTERM's path after the window (stop accepting, flush every WAL record); rows landed: rows of "
                + "the tenant in published files afterwards, never fewer than the records acknowledged.");
        double comp = median(compacting, HttpRound::compactionSeconds);
        report.note(String.format("compacting: one sweep of the daemon's compaction (product defaults) starts with "
                + "the window; compaction s is its wall time (%s the %d s window).",
                comp >= seconds ? "it covers" : "it ends inside", seconds));
        report.note("file: the same records as one OTLP/JSON file, landed by `ourios ingest`'s streaming path in "
                + "this process (decode, batch per partition within 16 MiB, content-named files); MiB/s of the "
                + "JSON input.");
    }

    static int intArg(BenchOptions o, String flag, int fallback) {
        List<String> a = o.args();
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).equals(flag) && i + 1 < a.size()) {
                return Integer.parseInt(a.get(i + 1));
            }
            if (a.get(i).startsWith(flag + "=")) {
                return Integer.parseInt(a.get(i).substring(flag.length() + 1));
            }
        }
        return fallback;
    }

    private static double median(List<HttpRound> rounds, ToDoubleFunction<HttpRound> f) {
        return medianOf(rounds.stream().map(f::applyAsDouble).toList());
    }

    private static double min(List<HttpRound> rounds, ToDoubleFunction<HttpRound> f) {
        return rounds.stream().mapToDouble(f).min().orElseThrow();
    }

    private static double max(List<HttpRound> rounds, ToDoubleFunction<HttpRound> f) {
        return rounds.stream().mapToDouble(f).max().orElseThrow();
    }

    private static double medianOf(List<Double> values) {
        return new Samples(values).median();
    }

    private static String describe(HttpRound r) {
        LoadResult l = r.load();
        return String.format("%,.0f records/s, %.1f MiB/s, p50 %.1f ms, p99 %.1f ms, refused %d, drain %.1f s, "
                        + "%,d rows landed%s", l.recordsPerSecond(), l.mibPerSecond(), l.p50Ms(), l.p99Ms(),
                l.refused() + l.failed(), r.drainSeconds(), r.rowsLanded(),
                r.compactionSeconds() < 0 ? "" : String.format(", compaction %.1f s", r.compactionSeconds()));
    }
}
