package dev.ourios.cli;

import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.SweepSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.iceberg.IcebergWiring;
import dev.ourios.parquet.footer.FooterInspector;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.QueryStats;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ourios demo}: the main job on the embedded default. Builds a realistic sample store if the directory is
 * empty, measures it, runs one compaction sweep, measures again, and prints before/after: files, bytes, row groups,
 * and a selective query's latency with the row groups it scanned and pruned.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Build a sample store (if empty), compact it, and show before/after")
public final class DemoCommand implements Callable<Integer> {
    static final List<String> TENANTS = List.of("acme", "globex");
    static final String SERVICE = "currency";
    /** The severity number of ERROR: the demo counts ERROR and worse rows. */
    static final int ERROR = 17;

    @Option(names = "--store", paramLabel = "DIR", defaultValue = "./ourios-data",
            description = "Local store directory (default ${DEFAULT-VALUE})")
    Path dir;

    @Option(names = "--hours", defaultValue = "2", description = "Hours of sample data (default ${DEFAULT-VALUE})")
    int hours;

    @Option(names = "--files-per-hour", defaultValue = "32", description = "Ingest files per tenant-hour (default ${DEFAULT-VALUE})")
    int filesPerHour;

    @Option(names = "--rows-per-file", defaultValue = "2000", description = "Rows per ingest file (default ${DEFAULT-VALUE})")
    int rowsPerFile;

    @Override
    public Integer call() throws Exception {
        Output out = Output.system();
        var w = out.out();
        ObjectStore store = new LocalObjectStore(dir);
        StoreCheck.requireWritable(store, "--store " + dir); // created when missing, as the writers do
        TableLayout layout = new TableLayout(store);
        boolean empty = layout.tenants().isEmpty();
        if (empty) {
            Instant start = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(hours + 1L, ChronoUnit.HOURS);
            GeneratorSpec spec = new GeneratorSpec(TENANTS, start, hours, filesPerHour, rowsPerFile,
                    GeneratorSpec.DEFAULT_SERVICES, 42, 0);
            w.printf("Generating a sample store in %s: %d tenants x %d hours x %d ingest files x %d rows%n",
                    dir.toAbsolutePath(), TENANTS.size(), hours, filesPerHour, rowsPerFile);
            w.println("  (OpenTelemetry-demo shape: 15 services with skewed volume, templated bodies, trace ids)");
            var summary = GenerateCommand.run(store, spec, out);
            w.printf("  landed %d files, %d rows, %s%n%n", summary.files(), summary.rows(),
                    Units.formatBytes(summary.bytes()));
        } else {
            w.printf("Using the existing store in %s%n%n", dir.toAbsolutePath());
        }
        String tenant = layout.tenants().contains(TENANTS.get(0)) ? TENANTS.get(0) : layout.tenants().get(0);
        PartitionKey first = layout.partitions(PartitionFilter.all().withTenants(java.util.Set.of(tenant))).get(0);
        Instant from = first.hourStart().plus(20, ChronoUnit.MINUTES);
        Query query = Query.tenant(tenant).service(SERVICE).window(from, from.plus(1, ChronoUnit.MINUTES))
                .order(Query.Order.OLDEST_FIRST);
        Query errors = Query.tenant(tenant).severityMin(ERROR);

        Snapshot before = measure(store, layout, query, errors);
        CompactionOptions options = CompactionOptions.defaults(Path.of(System.getProperty("java.io.tmpdir"),
                "ourios-scratch"))
                .withRowGroupBytes(CompactionFlags.envRowGroupBytes());
        SweepReport report = CompactionWiring.sweepRunner(SweepSettings.of(store, options).withFileRetention(
                IcebergWiring.retention(IcebergWiring.view(store, dir.toString()), Clock.systemUTC())))
                .sweep(PartitionFilter.all(), r -> out.progress("compact", 1, 1));
        Snapshot after = measure(store, layout, query, errors);

        long committed = report.count(PartitionResult.Result.COMMITTED);
        long bytesIn = report.partitions().stream().mapToLong(PartitionResult::bytesIn).sum();
        double mibps = report.seconds() > 0 ? bytesIn / 1048576.0 / report.seconds() : 0;
        w.printf("Compaction sweep: %d partitions committed, %d noop, %d errors in %.1f s (%.1f MiB/s of input)%n%n",
                committed, report.count(PartitionResult.Result.NOOP), report.count(PartitionResult.Result.ERROR),
                report.seconds(), mibps);
        for (PartitionResult r : report.partitions()) {
            if (r.result() == PartitionResult.Result.ERROR) {
                out.err().println("ourios: " + r.error());
            }
        }
        String q = "query: tenant " + tenant + ", service " + SERVICE + ", 1-minute window at " + from;
        w.println(q);
        w.printf("%-34s %14s %14s%n", "", "before", "after");
        row(w, "live files", before.files, after.files);
        w.printf("%-34s %14s %14s%n", "bytes", Units.formatBytes(before.bytes), Units.formatBytes(after.bytes));
        row(w, "row groups", before.rowGroups, after.rowGroups);
        row(w, "query rows", before.stats.rows(), after.stats.rows());
        row(w, "query files opened", before.stats.files(), after.stats.files());
        row(w, "query row groups scanned", before.stats.rowGroupsScanned(), after.stats.rowGroupsScanned());
        row(w, "query row groups pruned", before.stats.rowGroupsPruned(), after.stats.rowGroupsPruned());
        w.printf("%-34s %14s %14s%n", "query bytes read", Units.formatBytes(before.stats.bytesRead()),
                Units.formatBytes(after.stats.bytesRead()));
        w.printf("%-34s %11.1f ms %11.1f ms%n", "query latency (median of 7, warm)", before.latencyMs,
                after.latencyMs);
        row(w, "ERROR+ rows counted, all hours", before.count.rows(), after.count.rows());
        w.printf("%-34s %11.1f ms %11.1f ms%n", "count latency (median of 7, warm)", before.countMs, after.countMs);
        if (after.latencyMs > 0) {
            w.printf("%nSame answer (%d rows) reading %d file(s) instead of %d: %.1fx faster.%n", after.stats.rows(),
                    after.stats.files(), before.stats.files(), before.latencyMs / after.latencyMs);
        }
        w.printf("Try: ./ourios query --store %s --tenant %s --service %s --from %s --to %s --stats%n", dir, tenant,
                SERVICE, from, from.plus(1, ChronoUnit.MINUTES));
        w.printf("     ./ourios query --store %s --tenant %s --severity-min %d --count%n", dir, tenant, ERROR);
        w.printf("Or as a service: ./ourios serve --store %s   then in another shell:%n"
                + "  curl -s -X POST localhost:4319/v1/query -H 'X-Ourios-Tenant: %s' "
                + "-d '{\"service\":\"%s\",\"from\":\"%s\",\"to\":\"%s\",\"limit\":5}'%n", dir, tenant,
                SERVICE, from, from.plus(1, ChronoUnit.MINUTES));
        w.printf("Several compactors on one store, splitting each large hour between them:%n"
                + "  ./ourios compact --store %s --shard 0/2   and, elsewhere,"
                + "   ./ourios compact --store %s --shard 1/2%n", dir, dir);
        w.printf("See it in the web UI: ./ourios serve --store %s   then open http://127.0.0.1:4319/#range=24h"
                + "&tenant=%s%n", dir, tenant);
        if (before.stats.rows() != after.stats.rows() || before.count.rows() != after.count.rows()) {
            throw new JobFailedException("BUG: the query returned " + before.stats.rows() + " rows before and "
                    + after.stats.rows() + " after compaction; the count " + before.count.rows() + " and "
                    + after.count.rows());
        }
        return report.hasErrors() ? 1 : 0;
    }

    private static void row(java.io.PrintStream w, String label, long a, long b) {
        w.printf("%-34s %14d %14d%n", label, a, b);
    }

    private record Snapshot(long files, long bytes, long rowGroups, QueryStats stats, double latencyMs,
            QueryStats count, double countMs) {
    }

    @FunctionalInterface
    private interface Run {
        QueryStats run() throws IOException;
    }

    /** A query's last stats and its median latency over 7 runs, after warming the JIT (at least 5 runs and 2 s). */
    private record Timed(QueryStats stats, double medianMs) {
        static Timed of(Run query) throws IOException {
            // With fewer warm-up runs (one), the compacted side's single row group was still being read by
            // interpreted code and measured 6x slower than once warm.
            long warmUntil = System.nanoTime() + 2_000_000_000L;
            for (int i = 0; i < 5 || System.nanoTime() < warmUntil; i++) {
                query.run();
            }
            QueryStats stats = null;
            double[] times = new double[7];
            for (int i = 0; i < times.length; i++) {
                long t0 = System.nanoTime();
                stats = query.run();
                times[i] = (System.nanoTime() - t0) / 1e6;
            }
            Arrays.sort(times);
            return new Timed(stats, times[times.length / 2]);
        }
    }

    private static Snapshot measure(ObjectStore store, TableLayout layout, Query query, Query count)
            throws IOException {
        TableReader reader = new TableReader(store, new ManifestCodec());
        long files = 0;
        long bytes = 0;
        long groups = 0;
        for (PartitionKey p : layout.partitions(PartitionFilter.all())) {
            for (ObjectInfo o : reader.snapshot(p).live()) {
                files++;
                bytes += o.size();
                groups += FooterInspector.inspect(store, o.key()).rowGroups().size();
            }
        }
        QueryEngine engine = new QueryEngine(store, layout, reader, MeterProvider.noop());
        Timed rows = Timed.of(() -> engine.run(query, r -> { }));
        Timed counted = Timed.of(() -> engine.count(count));
        return new Snapshot(files, bytes, groups, rows.stats(), rows.medianMs(), counted.stats(), counted.medianMs());
    }
}
