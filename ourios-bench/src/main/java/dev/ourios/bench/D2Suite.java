package dev.ourios.bench;

import dev.ourios.bench.unsorted.UnsortedRewriter;
import dev.ourios.compaction.SortedRewriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * D2, compaction throughput: one partition of 32 inputs compacted into one file by our sorted rewrite, by our
 * unsorted rewrite (what sorting costs) and by DuckDB's sorted COPY with 2 threads (what a user would run instead),
 * as it comes and held to {@link #SAME_MEMORY_MIB} MiB, alternating, on two shapes: OpenTelemetry-demo rows
 * (~512 MiB at full size, compressible) and the reference's 32 × 4,800 rows × 4 KiB incompressible bodies
 * (~485 MiB).
 */
public final class D2Suite implements Suite {
    static final long DEMO_FULL_BYTES = 512L << 20;
    static final int FILES = 32;
    static final int REF_ROWS = 4_800;
    static final int REF_BODY = 4_096;
    /**
     * DuckDB held to this much memory: twice the heap our compaction is proven within (a 2 GiB partition under
     * -Xmx512m, the scaling suite). Held to {@link #PROVEN_HEAP_MIB} itself DuckDB runs out of memory on this COPY
     * (the suite tries it once per shape and notes what happened).
     */
    static final long SAME_MEMORY_MIB = 1024;
    static final long PROVEN_HEAP_MIB = 512;
    static final String SAME_MEMORY_NAME = "duckdb-2t-" + SAME_MEMORY_MIB + "mib";

    @Override
    public String name() {
        return "d2";
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        BenchOptions o = ctx.options();
        SuiteReport.Builder report = new SuiteReport.Builder(name(), o.command());
        boolean demoOn = !o.args().contains("--shapes=ref");
        boolean refOn = !o.args().contains("--shapes=demo");
        Fixture demo = demoOn ? demoFixture(ctx) : null;
        Fixture ref = refOn ? ctx.fixtures().incompressible(FILES, ctx.scaled(REF_ROWS, 4), REF_BODY, 2) : null;
        boolean sameMemory = false;
        for (Fixture f : shapes(o, demo, ref)) {
            report.shape(f.describe());
            ctx.log().accept("d2: " + f.describe());
            Path scratch = ctx.fixtures().scratch("d2-scratch");
            List<Contender> contenders = only(o, contenders(o, scratch));
            Map<String, Contest.Result> results = new Contest(contenders, o.warmups(), o.runs(), ctx.log()).run(f);
            addRows(report, f, results);
            sameMemory |= results.containsKey(SAME_MEMORY_NAME);
            if (contenders.stream().anyMatch(c -> c.name().startsWith("duckdb"))) {
                report.note(f.shape() + ", DuckDB held to " + PROVEN_HEAP_MIB + " MiB: "
                        + tryOnce(new DuckDbContender(2, scratch.resolve("duckdb"), PROVEN_HEAP_MIB), f));
            }
        }
        report.note("Time is the rewrite only (read, validate, sort, write, checksum both sides, atomic publish); "
                + "the manifest commit is not included. DuckDB: `SET threads=2`, same files, output ZSTD.");
        if (sameMemory) {
            report.note(SAME_MEMORY_NAME + ": the same COPY with `SET memory_limit='" + SAME_MEMORY_MIB + "MiB'` "
                    + "(twice the -Xmx512m our compaction is proven within; at 512 MiB see the lines above).");
        }
        report.note("peak RSS MiB: the whole JVM process's largest peak resident set over the timed runs (Linux "
                + "VmHWM, reset before each run): DuckDB's native memory plus the heap as earlier runs grew it, so for "
                + "our contenders it shows the -Xmx of the run, not their need (that is the memory and scaling "
                + "suites' -Xmx512m).");
        double touch = PageFaults.firstTouchMicrosPerPage(256);
        report.note(String.format("page faults M: the process's minor page faults per run (median, millions): each "
                + "is a first touch of a 4 KiB page. On this machine a first touch costs %s (256 MiB of fresh memory "
                + "zeroed, measured after the runs), so a contender that allocates gigabytes afresh each run pays "
                + "for it in time and process CPU; on a VM that cost varies from boot to boot (see "
                + "docs/benchmarks.md).", touch < 0 ? "an unknown time" : String.format("%.2f µs", touch)));
        report.note("ratio = median seconds of the contender / median seconds of ours-sorted (> 1: ours is faster).");
        return report.build();
    }

    static List<Contender> contenders(BenchOptions o, Path scratch) {
        return List.of(
                new RewriterContender("ours-sorted", s -> new SortedRewriter(s, scratch.resolve("sort")),
                        o.budgetBytes(), dev.ourios.compaction.plan.CompactionOptions.DEFAULT_FAN_IN),
                new RewriterContender("ours-unsorted", UnsortedRewriter::new, o.budgetBytes(),
                        dev.ourios.compaction.plan.CompactionOptions.DEFAULT_FAN_IN),
                new DuckDbContender(2, scratch.resolve("duckdb")),
                new DuckDbContender(2, scratch.resolve("duckdb"), SAME_MEMORY_MIB));
    }

    /** One untimed-for-the-table run: its time, or the first line of its failure (DuckDB's out-of-memory error). */
    private static String tryOnce(Contender c, Fixture f) {
        try {
            return String.format("%.2f s (one run)", c.run(f).seconds());
        } catch (Exception e) {
            String m = String.valueOf(e.getMessage());
            return "failed: " + m.lines().findFirst().orElse(m);
        }
    }

    /** The band-scale demo partition at the run's scale. */
    static Fixture demoFixture(BenchContext ctx) throws java.io.IOException {
        return ctx.fixtures().demo(FILES, Fixtures.demoRowsFor((long) (DEMO_FULL_BYTES * ctx.options().scale()),
                FILES), 1);
    }

    private static List<Fixture> shapes(BenchOptions o, Fixture demo, Fixture ref) {
        return java.util.stream.Stream.of(demo, ref).filter(java.util.Objects::nonNull).toList();
    }

    /** {@code --only=a,b} keeps the named contenders (profiling one of them). */
    static List<Contender> only(BenchOptions o, List<Contender> all) {
        return o.args().stream().filter(a -> a.startsWith("--only=")).findFirst()
                .map(a -> List.of(a.substring("--only=".length()).split(",")))
                .map(names -> all.stream().filter(c -> names.contains(c.name())).toList()).orElse(all);
    }

    static void addRows(SuiteReport.Builder report, Fixture f, Map<String, Contest.Result> results) {
        Contest.Result base = results.getOrDefault("ours-sorted", results.values().iterator().next());
        double ours = base.seconds().median();
        for (Contest.Result r : results.values()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("shape", f.shape());
            row.put("contender", r.contender().name());
            row.put("input MiB", f.mib());
            row.put("rows", f.rows());
            row.put("median s", r.seconds().median());
            row.put("min s", r.seconds().min());
            row.put("max s", r.seconds().max());
            row.put("MiB/s", f.mib() / r.seconds().median());
            row.put("rows/s", Math.round(f.rows() / r.seconds().median()));
            row.put("ratio", r.seconds().median() / ours);
            row.put("cpu s (1 thread)", r.cpuSeconds().median() < 0 ? null : r.cpuSeconds().median());
            row.put("process cpu s", r.processCpuSeconds().median());
            row.put("output bytes", r.last().bytesOut());
            row.put("row groups", r.last().rowGroups());
            row.put("spilled runs", r.last().spilledRuns());
            row.put("rows out", r.last().rowsOut());
            row.put("peak RSS MiB", r.peakRssMiB() < 0 ? null : r.peakRssMiB());
            row.put("page faults M", r.minorFaults().median() < 0 ? null : r.minorFaults().median() / 1e6);
            report.row(row);
        }
    }
}
