package dev.ourios.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code ourios-bench <suite> [options]}: runs one suite and prints its report as Markdown on stdout (progress on
 * stderr); {@code --json FILE} appends the JSON form. {@code all} runs every suite in turn but the opt-in ones.
 * Exit 2: a bad option, an unknown suite, or a prerequisite of the suite missing (one line on stderr).
 */
public final class BenchMain {
    /** Suites {@code all} leaves out: run on their own, or needing something built besides the bench jar. */
    static final java.util.Set<String> OPT_IN = java.util.Set.of("scaling-point", "query-spark", "cold-cli",
            "month-query", "shared-hour");

    private BenchMain() {
    }

    static Map<String, Suite> suites() {
        return List.<Suite>of(new D2Suite(), new D3Suite(), new ScalingSuite(), new B2PostSuite(),
                new Rfc0036Suite(), new ChecksumSuite(), new ScalingPointSuite(), new S3Suite(), new QueryDuckDbSuite(), new StatsDuckDbSuite(), new QuerySparkSuite(), new IngestSuite(),
                new ColdCliSuite(), new MonthQuerySuite(), new SharedHourSuite()).stream()
                .collect(Collectors.toMap(Suite::name, Function.identity(), (a, b) -> a, java.util.LinkedHashMap::new));
    }

    public static void main(String[] argv) throws Exception {
        if (argv.length > 0 && argv[0].equals("soak")) { // its own options: a run over time, not a suite of rounds
            System.exit(dev.ourios.bench.soak.SoakMain.run(List.of(argv).subList(1, argv.length)));
        }
        if (List.of(argv).contains("--help") || List.of(argv).contains("-h")) {
            System.out.println("usage: ourios-bench <suite> [--scale F | --smoke] [--runs N] [--warmups N] [--work DIR]"
                    + " [--json FILE] [--budget-mib N] [suite options]");
            System.out.println("suites: " + String.join(", ", suites().keySet()) + ", all (docs/benchmarks.md)");
            return;
        }
        BenchOptions o;
        try {
            o = BenchOptions.parse(argv);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println("suites: " + String.join(", ", suites().keySet()) + ", all");
            System.exit(2);
            return;
        }
        List<Suite> chosen = o.suite().equals("all")
                ? suites().values().stream().filter(s -> !OPT_IN.contains(s.name())).toList()
                : suites().containsKey(o.suite()) ? List.of(suites().get(o.suite())) : List.of();
        if (chosen.isEmpty()) {
            System.err.println("unknown suite '" + o.suite() + "'; suites: " + String.join(", ",
                    suites().keySet()) + ", all");
            System.exit(2);
        }
        for (Suite s : chosen) {
            SuiteReport r;
            try {
                r = run(s, o, System.err);
            } catch (BenchSetupException e) {
                System.err.println("ourios-bench " + s.name() + ": " + e.getMessage());
                System.exit(2);
                return;
            }
            System.out.println(r.toMarkdown());
            if (o.jsonOut().isPresent()) {
                Files.writeString(o.jsonOut().get(), r.toJson() + "\n", StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        }
    }

    /** Runs one suite (the smoke test calls this in-process). */
    public static SuiteReport run(Suite s, BenchOptions o, PrintStream log) throws Exception {
        Files.createDirectories(o.workDir());
        BenchContext ctx = new BenchContext(o, new Fixtures(o.workDir()), log::println);
        return s.run(ctx);
    }

    static SuiteReport runByName(String name, BenchOptions o, PrintStream log) throws Exception {
        Suite s = suites().get(name);
        if (s == null) {
            throw new IOException("unknown suite " + name);
        }
        return run(s, o, log);
    }
}
