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
 * stderr); {@code --json FILE} appends the JSON form. {@code all} runs every suite in turn.
 */
public final class BenchMain {
    private BenchMain() {
    }

    static Map<String, Suite> suites() {
        return List.<Suite>of(new D2Suite(), new D3Suite(), new ScalingSuite(), new B2PostSuite(),
                new Rfc0036Suite(), new ChecksumSuite(), new ScalingPointSuite(), new S3Suite(), new QueryDuckDbSuite(), new QuerySparkSuite(), new IngestSuite()).stream()
                .collect(Collectors.toMap(Suite::name, Function.identity(), (a, b) -> a, java.util.LinkedHashMap::new));
    }

    public static void main(String[] argv) throws Exception {
        if (argv.length > 0 && argv[0].equals("soak")) { // its own options: a run over time, not a suite of rounds
            System.exit(dev.ourios.bench.soak.SoakMain.run(List.of(argv).subList(1, argv.length)));
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
                ? suites().values().stream().filter(s -> !s.name().equals("scaling-point")
                        && !s.name().equals("query-spark")).toList()
                : suites().containsKey(o.suite()) ? List.of(suites().get(o.suite())) : List.of();
        if (chosen.isEmpty()) {
            System.err.println("unknown suite '" + o.suite() + "'; suites: " + String.join(", ",
                    suites().keySet()) + ", all");
            System.exit(2);
        }
        for (Suite s : chosen) {
            SuiteReport r = run(s, o, System.err);
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
