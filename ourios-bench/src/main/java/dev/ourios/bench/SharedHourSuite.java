package dev.ourios.bench;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One large hour compacted by one {@code ourios compact} process against the same hour shared by two sharded
 * processes ({@code --shard 0/2}, {@code --shard 1/2}) started at once (docs/spec/storage.md, "Sharing one rewrite
 * between compactor processes"), alternating, each run on a fresh copy of the store. With {@code --pin} (the default)
 * each process is held to one core of its own ({@code taskset}), as compactors on one-core machines: the one process
 * on core 0, the two on cores 0 and 1. The hour is {@code --size-mib=N} (default 512) of 32 demo ingest files
 * generated through the launcher; {@code --max-file-mib=N} (default 42: six shares of a 512 MiB hour, three per
 * process) bounds the files. Every run's band is checked byte for byte against the first one-process band.
 */
public final class SharedHourSuite implements Suite {
    private static final String TENANT = "acme";
    private static final Instant FROM = Instant.parse("2026-03-01T10:00:00Z");
    private static final int FILES = 32;
    private static final long SEED = 5;
    private static final String DONE = "fixture.done";
    private static final Duration PROCESS_TIMEOUT = Duration.ofMinutes(60);

    @Override
    public String name() {
        return "shared-hour";
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        CliLauncher cli = CliLauncher.locate(System.getProperty(CliLauncher.PROPERTY));
        BenchOptions o = ctx.options();
        long sizeMib = longArg(o, "--size-mib=", 512);
        long maxFileMib = longArg(o, "--max-file-mib=", 42);
        boolean pin = !o.args().contains("--pin=false");
        Path base = o.workDir().resolve("shared-hour");
        FreshProcess procs = new FreshProcess(base.resolve("logs"), PROCESS_TIMEOUT);
        int rowsPerFile = Fixtures.demoRowsFor(sizeMib << 20, FILES);
        Path fixture = base.resolve("fixtures").resolve("demo-" + FILES + "x" + rowsPerFile + "-s" + SEED);
        if (!Files.exists(fixture.resolve(DONE))) {
            Fixtures.deleteTree(fixture);
            ctx.log().accept("shared-hour: generating " + FILES + " x " + rowsPerFile + " rows into " + fixture);
            procs.run("generate", cli.command("generate", "--store", fixture.toString(), "--tenant", TENANT,
                    "--hours", "1", "--files-per-hour", Integer.toString(FILES), "--rows-per-file",
                    Integer.toString(rowsPerFile), "--seed", Long.toString(SEED), "--start", FROM.toString()),
                    Map.of()).stdoutOrThrow();
            Files.writeString(fixture.resolve(DONE), "done\n");
        }
        PartitionKey hour = PartitionKey.ofHour(TENANT, FROM);
        PartitionSnapshot input = snapshot(fixture, hour);
        long inputBytes = input.liveBytes();
        List<String> flags = List.of("--once", "--json", "--no-rollup", "--max-file-bytes", maxFileMib + "MiB",
                "--sort-budget", o.budgetMib() + "MiB");
        Path store = base.resolve("store");

        Map<String, List<FreshProcess.Run>> runs = new LinkedHashMap<>();
        runs.put("one process", new ArrayList<>());
        runs.put("two processes", new ArrayList<>());
        List<String> reference = null;
        int total = o.warmups() + o.runs();
        for (int i = 0; i < total; i++) {
            for (String mode : runs.keySet()) {
                StoreTree.copy(fixture, store, DONE);
                FreshProcess.Run r = mode.equals("one process")
                        ? one(procs, cli, store, flags, pin, mode + "-" + i)
                        : two(procs, cli, store, flags, pin, mode.replace(' ', '-') + "-" + i);
                List<String> band = band(store, hour);
                if (reference == null) {
                    reference = band;
                } else if (!reference.equals(band)) {
                    throw new IllegalStateException(mode + " run " + i + " wrote another band: " + band + " against "
                            + reference);
                }
                ctx.log().accept(String.format("shared-hour: %s run %d: %.2f s, %d files", mode, i, r.seconds(),
                        band.size()));
                if (i >= o.warmups()) {
                    runs.get(mode).add(r);
                }
            }
        }
        SuiteReport.Builder report = new SuiteReport.Builder(name(), o.command()).shape(String.format(
                "one hour of %d demo ingest files, %,d rows, %.1f MiB (`ourios generate --tenant %s --hours 1 "
                        + "--files-per-hour %d --rows-per-file %d --seed %d`); `ourios compact %s`, %s",
                FILES, (long) FILES * rowsPerFile, inputBytes / (double) (1 << 20), TENANT, FILES, rowsPerFile,
                SEED, String.join(" ", flags), pin ? "each process pinned to one core of its own (taskset)"
                        : "unpinned"));
        double oneMedian = median(runs.get("one process"), FreshProcess.Run::seconds);
        for (Map.Entry<String, List<FreshProcess.Run>> e : runs.entrySet()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("mode", e.getKey());
            row.put("median wall s", median(e.getValue(), FreshProcess.Run::seconds));
            row.put("runs s", e.getValue().stream().map(r -> String.format("%.2f", r.seconds())).toList());
            row.put("median CPU s", median(e.getValue(), FreshProcess.Run::cpuSeconds));
            row.put("peak RSS MiB", e.getValue().stream().mapToLong(FreshProcess.Run::peakRssMiB).max().orElse(-1));
            row.put("of one process", median(e.getValue(), FreshProcess.Run::seconds) / oneMedian);
            row.put("files", reference.size());
            report.row(row);
        }
        report.note("CPU and peak RSS of two processes: their sum and the larger of the two");
        report.note(String.format("first touch of a page on this machine: %.2f µs (256 MiB zeroed after the runs)",
                PageFaults.firstTouchMicrosPerPage(256)));
        return report.build();
    }

    private static FreshProcess.Run one(FreshProcess procs, CliLauncher cli, Path store, List<String> flags,
            boolean pin, String name) throws Exception {
        FreshProcess.Run r = procs.run(name, command(cli, store, flags, pin, 0, null), Map.of());
        requireCommitted(r.stdoutOrThrow(), 1, name);
        return r;
    }

    /** Both shards at once; the wall time from the first start to the last exit, CPU summed, RSS the larger. */
    private static FreshProcess.Run two(FreshProcess procs, CliLauncher cli, Path store, List<String> flags,
            boolean pin, String name) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            long t0 = System.nanoTime();
            List<Future<FreshProcess.Run>> both = new ArrayList<>();
            for (int shard = 0; shard < 2; shard++) {
                List<String> cmd = command(cli, store, flags, pin, shard, shard + "/2");
                String each = name + "-shard" + shard;
                both.add(pool.submit(() -> procs.run(each, cmd, Map.of())));
            }
            FreshProcess.Run a = both.get(0).get();
            FreshProcess.Run b = both.get(1).get();
            double seconds = (System.nanoTime() - t0) / 1e9;
            requireCommitted(a.stdoutOrThrow() + b.stdoutOrThrow(), 1, name);
            return new FreshProcess.Run(name, seconds, 0, a.stdout() + b.stdout(), a.stderr() + b.stderr(),
                    Math.max(a.peakRssMiB(), b.peakRssMiB()), a.minorFaults() + b.minorFaults(),
                    a.cpuSeconds() + b.cpuSeconds());
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<String> command(CliLauncher cli, Path store, List<String> flags, boolean pin, int core,
            String shard) {
        List<String> args = new ArrayList<>(List.of("compact", "--store", store.toString()));
        args.addAll(flags);
        if (shard != null) {
            args.addAll(List.of("--shard", shard));
        }
        List<String> cmd = new ArrayList<>();
        if (pin) {
            cmd.addAll(List.of("taskset", "-c", Integer.toString(core)));
        }
        cmd.addAll(cli.command(args.toArray(String[]::new)));
        return cmd;
    }

    private static void requireCommitted(String stdout, int expected, String name) {
        long committed = stdout.lines().filter(l -> l.contains("\"result\":\"committed\"") && !l.contains("summary"))
                .count();
        if (committed != expected) {
            throw new IllegalStateException(name + ": " + committed + " commits of the hour, expected " + expected
                    + ":\n" + stdout);
        }
    }

    /** The SHA-256 of each file of the hour's committed band, in key order. */
    private static List<String> band(Path store, PartitionKey hour) throws IOException, NoSuchAlgorithmException {
        PartitionSnapshot s = snapshot(store, hour);
        List<String> digests = new ArrayList<>();
        for (String name : s.manifest().orElseThrow(() -> new IllegalStateException("nothing committed in " + store))
                .main()) {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(store.resolve(
                    hour.dataPrefix() + name)));
            digests.add(HexFormat.of().formatHex(d, 0, 8));
        }
        return digests;
    }

    private static PartitionSnapshot snapshot(Path store, PartitionKey hour) throws IOException {
        return new TableReader(new LocalObjectStore(store), new ManifestCodec()).snapshot(hour);
    }

    private static long longArg(BenchOptions o, String prefix, long otherwise) {
        return o.args().stream().filter(a -> a.startsWith(prefix)).findFirst()
                .map(a -> Long.parseLong(a.substring(prefix.length()))).orElse(otherwise);
    }

    private static double median(List<FreshProcess.Run> runs,
            java.util.function.ToDoubleFunction<FreshProcess.Run> f) {
        double[] v = runs.stream().mapToDouble(f).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
