package dev.ourios.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.store.AtomicOutput;
import dev.ourios.store.s3.S3ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A month of one tenant's logs against the same number of rows in one partition: does a query's cost follow its
 * rows or the hours they span? Every command is a fresh process through the real launcher.
 * <ol>
 *   <li>The month: 30 days x 24 hours, two ingest files an hour ({@code ourios generate}), compacted two ways
 *   ({@code --layouts}): {@code ourios compact --once --no-rollup} (one file an hour) and {@code ourios compact --once
 *   --rollup} (the small hours rolled up into day files), then {@code ourios gc --grace 0s}: the month at rest, its
 *   compactions' inputs collected, as every sweep's GC leaves an hour once the grace has passed.</li>
 *   <li>One partition: one hour of 32 ingest files holding the same number of rows, compacted and collected alike.</li>
 *   <li>Timed, alternating: {@code ourios query --count} of one service over each month; the same over the one
 *   partition; DuckDB counting each month's rows of that service over exactly the files {@code ourios files}
 *   lists. The months' counts must all agree.</li>
 *   <li>Untimed, once each: the store requests of both queries ({@code --stats --json}), and the live files per
 *   day.</li>
 * </ol>
 * {@code --warm} adds the same counts against a warm {@code ourios serve} of each local store (queries only: no
 * receiver, no compaction), timed from the request to the answer.
 * {@code --backends=local,s3} adds the same queries against copies of the stores on s3proxy (loopback), with
 * measured request counts; DuckDB is not run there (its S3 support is an extension it downloads).
 */
public final class MonthQuerySuite implements Suite {
    static final int DAYS = 30;
    static final int FILES_PER_HOUR = 2;
    static final int ONE_PARTITION_FILES = 32;
    /** About 960,000 rows at scale 1, the size the issue of a month's query names. */
    static final int FULL_ROWS_PER_FILE = 667;
    static final int SERVICES = 8;
    static final long SEED = 5;
    static final String TENANT = "default";
    static final String SERVICE = "checkout";
    static final Instant START = Instant.parse("2026-03-01T00:00:00Z");
    static final String BUCKET = "bench";
    static final String HOURLY = "hourly";
    static final String ROLLUP = "rollup";
    static final String ONE = "ours one partition";
    private static final String DONE = "fixture-at-rest.done";
    private static final Duration PROCESS_TIMEOUT = Duration.ofMinutes(30);
    /**
     * Warm mode: queries each server answers before any is timed: caches filled and the query path compiled (a few
     * queries leave it interpreted; a server answering a dashboard has answered thousands).
     */
    static final int WARM_UP_QUERIES = 200;
    /** Warm mode: timed queries per server per {@code --runs}. */
    static final int WARM_QUERIES_PER_RUN = 5;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String name() {
        return "month-query";
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        CliLauncher cli = CliLauncher.locate(System.getProperty(CliLauncher.PROPERTY));
        BenchOptions o = ctx.options();
        Set<String> backends = backends(o);
        int days = days(o);
        int hours = days * 24;
        Instant end = START.plus(Duration.ofDays(days));
        Path base = o.workDir().resolve("month-query");
        FreshProcess procs = new FreshProcess(base.resolve("logs"), PROCESS_TIMEOUT);
        int rowsPerFile = Math.max(10, (int) Math.round(FULL_ROWS_PER_FILE * o.scale()));
        long rows = (long) hours * FILES_PER_HOUR * rowsPerFile;
        int onePartitionRows = (int) (rows / ONE_PARTITION_FILES);
        List<String> layouts = layouts(o);
        Map<String, Path> months = new LinkedHashMap<>();
        for (String layout : layouts) {
            months.put(layout, store(ctx, cli, procs, base.resolve("month-" + days + "d-" + rowsPerFile + "-" + layout),
                    hours, FILES_PER_HOUR, rowsPerFile, layout.equals(ROLLUP)));
        }
        Path one = store(ctx, cli, procs, base.resolve("one-" + onePartitionRows), 1, ONE_PARTITION_FILES,
                onePartitionRows, false);

        String[] window = {"--tenant", TENANT, "--from", START.toString(), "--to", end.toString()};
        Map<String, Path> fileLists = new LinkedHashMap<>();
        List<String> perDay = new ArrayList<>();
        for (Map.Entry<String, Path> m : months.entrySet()) {
            String listed = procs.run("files-" + m.getKey(), cli.command(concat(new String[] {"files", "--store",
                    m.getValue().toString()}, window)), Map.of()).stdoutOrThrow();
            Path list = base.resolve("month-live-files-" + m.getKey() + ".txt");
            Files.writeString(list, listed, StandardCharsets.UTF_8);
            fileLists.put(m.getKey(), list);
            long liveFiles = listed.lines().filter(l -> !l.isBlank()).count();
            perDay.add(String.format("%s: %d live files (%.1f a day)", m.getKey(), liveFiles,
                    liveFiles / (double) days));
        }

        SuiteReport.Builder report = new SuiteReport.Builder(name(), o.command()).shape(String.format(
                "one tenant, %d services; the month: %d hours x %d ingest files x %d rows (%,d rows), compacted by "
                + "`ourios compact --once --no-rollup` (hourly) and `ourios compact --once --rollup` (rollup): %s; one "
                + "partition: %d ingest files x %d rows, compacted; each at rest (`ourios gc --grace 0s` after the "
                + "compaction); `ourios generate --seed %d`", SERVICES, hours,
                FILES_PER_HOUR, rowsPerFile, rows, String.join(", ", perDay), ONE_PARTITION_FILES, onePartitionRows,
                SEED));

        String classPath = System.getProperty("java.class.path");
        Map<String, Long> counts = new LinkedHashMap<>();
        Map<String, String> local = new LinkedHashMap<>();
        months.forEach((layout, store) -> local.put(monthName(layout), store.toString()));
        local.put(ONE, one.toString());
        List<ProcessContest.Entry> entries = new ArrayList<>();
        for (Map.Entry<String, String> e : local.entrySet()) {
            entries.add(countEntry(procs, counts, e.getKey(), cli.command(concat(new String[] {"query", "--store",
                    e.getValue()}, window, countArgs())), Map.of(), !e.getKey().equals(ONE)));
        }
        for (Map.Entry<String, Path> list : fileLists.entrySet()) {
            entries.add(countEntry(procs, counts, duckName(list.getKey()), List.of("java", "-cp", classPath,
                    DuckDbCountMain.class.getName(), "2", list.getValue().toString(), SERVICE, START.toString(),
                    end.toString()), Map.of(), true));
        }
        ctx.log().accept("month-query: local, " + String.join(", ", perDay));
        Map<String, List<ProcessContest.Timed>> timed = new ProcessContest(entries, o.warmups(), o.runs(),
                ctx.log()).run();
        addRows(report, "local", timed, counts, stats(procs, cli, local, window, Map.of(), List.of()));

        if (backends.contains("s3")) {
            try (S3Loopback server = S3Loopback.start(BUCKET)) {
                ctx.log().accept("month-query: uploading the stores to s3proxy at " + server.endpoint());
                Map<String, String> remote = new LinkedHashMap<>();
                for (Map.Entry<String, Path> m : months.entrySet()) {
                    upload(m.getValue(), server, "month-" + m.getKey());
                    remote.put(monthName(m.getKey()) + " (s3proxy)", "s3://" + BUCKET + "/month-" + m.getKey());
                }
                upload(one, server, "one");
                remote.put(ONE + " (s3proxy)", "s3://" + BUCKET + "/one");
                Map<String, String> env = Map.of("AWS_ACCESS_KEY_ID", S3Loopback.IDENTITY, "AWS_SECRET_ACCESS_KEY",
                        S3Loopback.CREDENTIAL, "AWS_REGION", "us-east-1");
                List<String> endpoint = List.of("--s3-endpoint", server.endpoint().toString());
                List<ProcessContest.Entry> s3Entries = new ArrayList<>();
                for (Map.Entry<String, String> e : remote.entrySet()) {
                    s3Entries.add(countEntry(procs, counts, e.getKey(), cli.command(concat(new String[] {"query",
                            "--store", e.getValue()}, endpoint.toArray(String[]::new), window, countArgs())), env,
                            !e.getKey().startsWith(ONE)));
                }
                Map<String, List<ProcessContest.Timed>> s3Timed = new ProcessContest(s3Entries, o.warmups(),
                        o.runs(), ctx.log()).run();
                addRows(report, "s3proxy", s3Timed, counts, stats(procs, cli, remote, window, env, endpoint));
            }
        }
        if (warm(o)) {
            warmRows(ctx, cli, base, local, end, report);
        }
        double oneSecs = seconds(timed.get(ONE)).median();
        for (String layout : layouts) {
            double monthSecs = seconds(timed.get(monthName(layout))).median();
            double duckSecs = seconds(timed.get(duckName(layout))).median();
            report.note(String.format("local, %s: the month / one partition = %.2f (target <= 1.3: %s); the month / "
                    + "DuckDB over its files = %.2f (target <= 1.0: %s)", layout, monthSecs / oneSecs,
                    monthSecs / oneSecs <= 1.3 ? "met" : "not met", monthSecs / duckSecs,
                    monthSecs <= duckSecs ? "met" : "not met"));
        }
        report.note("Wall time is the whole process, fork to exit; each command a fresh JVM through the launcher "
                + "(DuckDB: a fresh JVM running DuckDB JDBC with 2 threads). The one partition holds the same number "
                + "of rows of the same generator, so its count of the service is close to, not equal to, the "
                + "month's. Requests are one untimed `--stats --json` run's: the S3-equivalent model on local disk, "
                + "measured HTTP requests on s3proxy (a child JVM on loopback: request pattern, not network latency).");
        report.note(String.format("first touch of a fresh 4 KiB page on this machine: %.2f µs",
                PageFaults.firstTouchMicrosPerPage(256)));
        return report.build();
    }

    /** Queries against a warm server: the count of each store through {@code ourios serve}, caches filled. */
    private static void warmRows(BenchContext ctx, CliLauncher cli, Path base, Map<String, String> stores, Instant end,
            SuiteReport.Builder report) throws IOException, InterruptedException {
        BenchOptions o = ctx.options();
        String body = JSON.writeValueAsString(Map.of("from", START.toString(), "to", end.toString(), "service",
                SERVICE, "count", true));
        Map<String, WarmServer> servers = new LinkedHashMap<>();
        Map<String, List<Double>> times = new LinkedHashMap<>();
        Map<String, JsonNode> last = new LinkedHashMap<>();
        try {
            int i = 0;
            for (Map.Entry<String, String> e : stores.entrySet()) {
                servers.put(e.getKey(), WarmServer.start(cli, e.getValue(), List.of(), Map.of(),
                        base.resolve("logs").resolve("serve-" + i++ + ".log")));
                times.put(e.getKey(), new ArrayList<>());
            }
            ctx.log().accept("month-query: warm, " + servers.size() + " servers up");
            int warmUps = ctx.scaled(WARM_UP_QUERIES, 5);
            for (int round = -warmUps; round < o.runs() * WARM_QUERIES_PER_RUN; round++) {
                for (Map.Entry<String, WarmServer> e : servers.entrySet()) {
                    long start = System.nanoTime();
                    JsonNode answer = JSON.readTree(e.getValue().query(TENANT, body));
                    double secs = (System.nanoTime() - start) / 1e9;
                    last.put(e.getKey(), answer);
                    if (round >= 0) {
                        times.get(e.getKey()).add(secs);
                    }
                }
                long month = -1;
                for (Map.Entry<String, JsonNode> a : last.entrySet()) {
                    if (!a.getKey().equals(ONE)) {
                        long c = a.getValue().get("count").asLong();
                        if (month >= 0 && c != month) {
                            throw new IllegalStateException("warm counts disagree: " + last);
                        }
                        month = c;
                    }
                }
            }
        } finally {
            for (WarmServer s : servers.values()) {
                s.close();
            }
        }
        for (Map.Entry<String, List<Double>> e : times.entrySet()) {
            Samples samples = new Samples(e.getValue());
            JsonNode answer = last.get(e.getKey());
            JsonNode st = answer.path("stats");
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("backend", "local, warm (serve)");
            row.put("contender", e.getKey());
            row.put("count", answer.get("count").asLong());
            row.put("median s", samples.median());
            row.put("min s", samples.min());
            row.put("max s", samples.max());
            row.put("partitions", st.has("partitions") ? st.get("partitions").asLong() : null);
            row.put("files", st.has("files") ? st.get("files").asLong() : null);
            row.put("bytes read", st.has("bytes_read") ? st.get("bytes_read").asLong() : null);
            row.put("list", null);
            row.put("head", null);
            row.put("get", null);
            report.row(row);
        }
        double one = new Samples(times.get(ONE)).median();
        for (String name : times.keySet()) {
            if (!name.equals(ONE)) {
                double month = new Samples(times.get(name)).median();
                report.note(String.format("warm (serve), %s: the month / one partition = %.2f (target <= 1.2: %s); "
                        + "%d queries each after %d to warm up, the servers' turns alternating, timed from the "
                        + "request to the answer", name, month / one, month / one <= 1.2 ? "met" : "not met",
                        times.get(name).size(), ctx.scaled(WARM_UP_QUERIES, 5)));
            }
        }
    }

    /** {@code --warm}: adds the month's count against a warm server. */
    static boolean warm(BenchOptions o) {
        return o.args().contains("--warm");
    }

    static String monthName(String layout) {
        return "ours month (" + layout + ")";
    }

    static String duckName(String layout) {
        return "duckdb-2t month (" + layout + ")";
    }

    /** {@code --layouts=hourly,rollup} (the default: both): how the month is compacted. */
    static List<String> layouts(BenchOptions o) throws BenchSetupException {
        List<String> chosen = o.args().stream().filter(a -> a.startsWith("--layouts=")).findFirst()
                .map(a -> List.of(a.substring("--layouts=".length()).split(","))).orElse(List.of(HOURLY, ROLLUP));
        for (String l : chosen) {
            if (!List.of(HOURLY, ROLLUP).contains(l)) {
                throw new BenchSetupException("--layouts: unknown layout '" + l + "' (hourly, rollup)");
            }
        }
        return chosen;
    }

    static Set<String> backends(BenchOptions o) throws BenchSetupException {
        Set<String> chosen = o.args().stream().filter(a -> a.startsWith("--backends=")).findFirst()
                .map(a -> Set.of(a.substring("--backends=".length()).split(","))).orElse(Set.of("local"));
        for (String b : chosen) {
            if (!Set.of("local", "s3").contains(b)) {
                throw new BenchSetupException("--backends: unknown backend '" + b + "' (local, s3)");
            }
        }
        return chosen;
    }

    /** {@code --days=N}: the month's length (default 30; fewer for a quick look or a test). */
    static int days(BenchOptions o) throws BenchSetupException {
        String given = o.args().stream().filter(a -> a.startsWith("--days=")).findFirst()
                .map(a -> a.substring("--days=".length())).orElse(Integer.toString(DAYS));
        try {
            int d = Integer.parseInt(given);
            if (d >= 1 && d <= 366) {
                return d;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new BenchSetupException("--days: expected a number of days from 1 to 366, got '" + given + "'");
    }

    private static String[] countArgs() {
        return new String[] {"--service", SERVICE, "--count"};
    }

    /** A store generated and compacted once per shape, reused while its marker is there. */
    private static Path store(BenchContext ctx, CliLauncher cli, FreshProcess procs, Path root, int hours,
            int files, int rowsPerFile, boolean rollup) throws IOException, InterruptedException {
        if (Files.exists(root.resolve(DONE))) {
            return root;
        }
        Fixtures.deleteTree(root);
        Files.createDirectories(root);
        ctx.log().accept("month-query: generating " + hours + " hour(s) x " + files + " x " + rowsPerFile
                + " rows into " + root);
        procs.run("generate-" + root.getFileName(), cli.command("generate", "--store", root.toString(), "--tenants",
                "1", "--hours", Integer.toString(hours), "--files-per-hour", Integer.toString(files),
                "--rows-per-file", Integer.toString(rowsPerFile), "--services", Integer.toString(SERVICES), "--seed",
                Long.toString(SEED), "--start", START.toString()), Map.of()).stdoutOrThrow();
        List<String> compact = new ArrayList<>(List.of("compact", "--store", root.toString(), "--once",
                rollup ? "--rollup" : "--no-rollup"));
        procs.run("compact-" + root.getFileName(), cli.command(compact.toArray(String[]::new)), Map.of())
                .stdoutOrThrow();
        // At rest: the compactions' inputs collected, as a sweep's GC leaves every hour once the grace has passed.
        procs.run("gc-" + root.getFileName(), cli.command("gc", "--store", root.toString(), "--grace", "0s"),
                Map.of()).stdoutOrThrow();
        Files.writeString(root.resolve(DONE), root.getFileName() + "\n");
        return root;
    }

    /**
     * A timed count. Counts that must agree are compared by {@link ProcessContest} in every round; the one
     * partition's (other rows of the same shape) is only recorded.
     */
    private static ProcessContest.Entry countEntry(FreshProcess procs, Map<String, Long> counts, String name,
            List<String> cmd, Map<String, String> env, boolean agrees) {
        return new ProcessContest.Entry(name, String.join(" ", cmd), run -> {
            FreshProcess.Run r = procs.run(run, cmd, env);
            String out = r.stdoutOrThrow().trim();
            long count;
            try {
                count = Long.parseLong(out);
            } catch (NumberFormatException e) {
                throw new IllegalStateException(run + ": expected one count, got: " + out, e);
            }
            counts.put(name, count);
            return new ProcessContest.Timed(r, agrees ? count : -1);
        });
    }

    /** The {@code stats} object of one untimed {@code --stats --json} run of each named store's query. */
    private static Map<String, JsonNode> stats(FreshProcess procs, CliLauncher cli, Map<String, String> stores,
            String[] window, Map<String, String> env, List<String> extra) throws IOException, InterruptedException {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : stores.entrySet()) {
            List<String> args = new ArrayList<>(List.of("query", "--store", e.getValue()));
            args.addAll(extra);
            args.addAll(List.of(window));
            args.addAll(List.of("--service", SERVICE, "--count", "--stats", "--json"));
            String printed = procs.run("stats", cli.command(args.toArray(String[]::new)), env).stdoutOrThrow();
            List<String> lines = printed.lines().filter(l -> !l.isBlank()).toList();
            out.put(e.getKey(), JSON.readTree(lines.get(lines.size() - 1)).get("stats"));
        }
        return out;
    }

    private static void addRows(SuiteReport.Builder report, String backend, Map<String, List<ProcessContest.Timed>> all,
            Map<String, Long> counts, Map<String, JsonNode> stats) {
        for (Map.Entry<String, List<ProcessContest.Timed>> e : all.entrySet()) {
            Samples s = seconds(e.getValue());
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("backend", backend);
            row.put("contender", e.getKey());
            row.put("count", counts.get(e.getKey()));
            row.put("median s", s.median());
            row.put("min s", s.min());
            row.put("max s", s.max());
            JsonNode st = stats.get(e.getKey());
            JsonNode q = st == null ? null : st.get("requests");
            row.put("partitions", st == null ? null : st.get("partitions").asLong());
            row.put("files", st == null ? null : st.get("files").asLong());
            row.put("bytes read", st == null ? null : st.get("bytes_read").asLong());
            row.put("list", q == null ? null : q.get("list").asLong());
            row.put("head", q == null ? null : q.get("head").asLong());
            row.put("get", q == null ? null : q.get("get").asLong());
            report.row(row);
        }
    }

    private static Samples seconds(List<ProcessContest.Timed> runs) {
        return new Samples(runs.stream().map(t -> t.run().seconds()).toList());
    }

    /** Every file of a local store, at the same keys under {@code prefix} of the bucket. */
    private static void upload(Path root, S3Loopback server, String prefix) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals(DONE)).sorted()
                    .toList();
        }
        try (S3ObjectStore s3 = new S3ObjectStore(server.config(BUCKET, prefix))) {
            for (Path p : files) {
                String key = root.relativize(p).toString().replace('\\', '/');
                try (AtomicOutput out = s3.create(key); InputStream in = Files.newInputStream(p)) {
                    in.transferTo(out);
                    out.commit();
                }
            }
        }
    }

    private static String[] concat(String[]... parts) {
        List<String> all = new ArrayList<>();
        for (String[] p : parts) {
            all.addAll(List.of(p));
        }
        return all.toArray(String[]::new);
    }
}
