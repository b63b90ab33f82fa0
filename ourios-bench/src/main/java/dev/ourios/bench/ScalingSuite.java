package dev.ourios.bench;

import dev.ourios.testkit.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scaling: sorted-compaction throughput and peak heap for demo partitions of 32 MiB → 2 GiB (times --scale), each
 * in its own JVM with a modest -Xmx: with spilling (the product's 64 MiB budget, -Xmx512m) and without (a budget
 * larger than the partition's decoded rows, heap sized to hold them; only up to 128 MiB, beyond that the decoded
 * rows do not fit a modest heap). Writes one SVG chart ({@code --svg=PATH}, default docs/bench-scaling.svg).
 */
public final class ScalingSuite implements Suite {
    static final long[] SIZES_MIB = {32, 128, 512, 2048};
    static final long NO_SPILL_MAX_MIB = 128;
    /** A bound on one point's child JVM, generous for full-size points: a hung child is killed, not waited for. */
    private static final Duration POINT_TIMEOUT = Duration.ofHours(2);

    @Override
    public String name() {
        return "scaling";
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        BenchOptions o = ctx.options();
        SuiteReport.Builder report = new SuiteReport.Builder(name(), o.command());
        List<ScalingChart.Point> points = new ArrayList<>();
        for (long full : SIZES_MIB) {
            long size = Math.max(1, Math.round(full * o.scale()));
            points.add(point(ctx, report, "spill", size, 64, "-Xmx512m"));
            if (full <= NO_SPILL_MAX_MIB) {
                long heap = Math.max(1024, size * 24);
                points.add(point(ctx, report, "no spill", size, Math.max(256, size * 16), "-Xmx" + heap + "m"));
            }
        }
        Path svg = Path.of(o.args().stream().filter(a -> a.startsWith("--svg=")).findFirst()
                .map(a -> a.substring("--svg=".length())).orElse("docs/bench-scaling.svg"));
        if (svg.getParent() != null) {
            Files.createDirectories(svg.getParent());
        }
        Files.writeString(svg, new ScalingChart(points).svg(), StandardCharsets.UTF_8);
        report.note("chart: " + svg);
        report.note("Each point is a fresh JVM (`java <-Xmx> -cp <bench jar> dev.ourios.bench.BenchMain "
                + "scaling-point`); peak heap = sum of the heap pools' peak usage (MemoryPoolMXBean), reset before "
                + "the timed runs, an upper bound of the simultaneous peak.");
        return report.build();
    }

    private ScalingChart.Point point(BenchContext ctx, SuiteReport.Builder report, String mode, long sizeMib,
            long budgetMib, String xmx) throws IOException, InterruptedException {
        BenchOptions o = ctx.options();
        Path json = Files.createTempFile(o.workDir(), "scaling-", ".json");
        ctx.log().accept("scaling: " + mode + " " + sizeMib + " MiB " + xmx);
        try (ChildJvm child = ChildJvm.main(BenchMain.class).name("scaling-point").jvmArgs(xmx)
                .args("scaling-point", "--size-mib=" + sizeMib, "--budget-mib", Long.toString(budgetMib), "--runs",
                        Integer.toString(o.runs()), "--warmups", Integer.toString(o.warmups()), "--work",
                        o.workDir().toString(), "--json", json.toString())
                .logDir(o.workDir()).start()) {
            int rc = child.waitFor(POINT_TIMEOUT);
            String stderr = child.stderr();
            Files.deleteIfExists(child.stdoutFile());
            Files.deleteIfExists(child.stderrFile());
            if (rc != 0) {
                String tail = stderr.substring(Math.max(0, stderr.length() - 2000));
                throw new IOException("scaling point " + sizeMib + " MiB (" + mode + ") exited " + rc + ":\n"
                        + tail);
            }
        }
        SuiteReport child = SuiteReport.fromJson(Files.readString(json).trim());
        Files.delete(json);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("mode", mode);
        row.put("-Xmx", xmx.substring(4));
        row.putAll(child.rows().get(0));
        report.row(row);
        report.shape(mode + ", " + xmx + ": " + child.shapes().get(0));
        return new ScalingChart.Point(mode, ((Number) row.get("input MiB")).doubleValue(),
                ((Number) row.get("MiB/s")).doubleValue(), ((Number) row.get("peak heap MiB")).doubleValue());
    }
}
