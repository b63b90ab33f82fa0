package dev.ourios.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Command-line options of {@code ourios-bench <suite> [options]}.
 *
 * @param suite     the suite to run
 * @param scale     fraction of each suite's full data size (1 = full; {@code --smoke} = 1/256)
 * @param runs      measured rounds per contender (A/B alternating)
 * @param warmups   untimed rounds first (JIT, page cache)
 * @param workDir   fixtures, scratch and outputs (fixtures are reused across invocations)
 * @param jsonOut   where the JSON report is appended, if anywhere
 * @param budgetMib the sort budget B in MiB (default: the product's default)
 * @param args      suite-specific leftovers (the scaling suite's child JVM uses them)
 */
public record BenchOptions(String suite, double scale, int runs, int warmups, Path workDir, Optional<Path> jsonOut,
        long budgetMib, List<String> args) {

    public static final double SMOKE = 1.0 / 256;

    public BenchOptions {
        args = List.copyOf(args);
        if (!(scale > 0) || scale > 16) {
            throw new IllegalArgumentException("--scale must be in (0, 16], got " + scale);
        }
        if (runs < 1 || warmups < 0) {
            throw new IllegalArgumentException("--runs must be >= 1 and --warmups >= 0");
        }
    }

    public static BenchOptions parse(String[] argv) {
        if (argv.length == 0) {
            throw new IllegalArgumentException("usage: ourios-bench <suite> [--scale F | --smoke] [--runs N] "
                    + "[--warmups N] [--work DIR] [--json FILE] [--budget-mib N]");
        }
        String suite = argv[0];
        double scale = 1;
        int runs = 3;
        int warmups = 1;
        Path work = Path.of(System.getProperty("java.io.tmpdir"), "ourios-bench");
        Optional<Path> json = Optional.empty();
        long budget = dev.ourios.compaction.plan.CompactionOptions.DEFAULT_SORT_BUDGET_BYTES >> 20;
        List<String> rest = new ArrayList<>();
        for (int i = 1; i < argv.length; i++) {
            String a = argv[i];
            switch (a) {
                case "--scale" -> scale = Double.parseDouble(value(argv, ++i, a));
                case "--smoke" -> scale = SMOKE;
                case "--runs" -> runs = Integer.parseInt(value(argv, ++i, a));
                case "--warmups" -> warmups = Integer.parseInt(value(argv, ++i, a));
                case "--work" -> work = Path.of(value(argv, ++i, a));
                case "--json" -> json = Optional.of(Path.of(value(argv, ++i, a)));
                case "--budget-mib" -> budget = Long.parseLong(value(argv, ++i, a));
                default -> rest.add(a);
            }
        }
        return new BenchOptions(suite, scale, runs, warmups, work, json, budget, rest);
    }

    private static String value(String[] argv, int i, String flag) {
        if (i >= argv.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return argv[i];
    }

    public long budgetBytes() {
        return budgetMib << 20;
    }

    /** The command line that reproduces this run through the launcher. */
    public String command() {
        StringBuilder sb = new StringBuilder("./ourios-bench ").append(suite);
        if (scale != 1) {
            sb.append(" --scale ").append(scale == SMOKE ? "0.00390625" : Double.toString(scale));
        }
        sb.append(" --runs ").append(runs).append(" --warmups ").append(warmups);
        if (budgetMib != dev.ourios.compaction.plan.CompactionOptions.DEFAULT_SORT_BUDGET_BYTES >> 20) {
            sb.append(" --budget-mib ").append(budgetMib);
        }
        args.forEach(a -> sb.append(' ').append(a));
        return sb.toString();
    }
}
