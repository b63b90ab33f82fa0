package dev.ourios.bench;

import dev.ourios.compaction.RowVerification;
import dev.ourios.compaction.SortedRewriter;
import dev.ourios.compaction.share.ShareSampler;
import dev.ourios.core.Uuid7;
import dev.ourios.compaction.plan.CompactionOptions;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One point of the scaling curve, run by {@link ScalingSuite} in its own JVM: a demo partition of
 * {@code --size-mib} (32 inputs) compacted by the sorted rewrite under this JVM's -Xmx and the given budget, with
 * the heap pools' peak usage reset just before the timed runs; {@code --max-file-mib=N} cuts the output into a band
 * of files of at most N MiB (default 2 GiB: one file), and {@code --share-workers=N} splits a rewrite of at least
 * four times that bound between N workers (docs/spec/storage.md, "Sharing one rewrite between workers").
 */
public final class ScalingPointSuite implements Suite {
    @Override
    public String name() {
        return "scaling-point";
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        BenchOptions o = ctx.options();
        long sizeMib = o.args().stream().filter(a -> a.startsWith("--size-mib=")).findFirst()
                .map(a -> Long.parseLong(a.substring("--size-mib=".length())))
                .orElseThrow(() -> new IllegalArgumentException("scaling-point needs --size-mib=N"));
        Fixture f = ctx.fixtures().demo(32, Fixtures.demoRowsFor(sizeMib << 20, 32), 5);
        var scratch = ctx.fixtures().scratch("scaling-scratch");
        long maxFileBytes = o.args().stream().filter(a -> a.startsWith("--max-file-mib=")).findFirst()
                .map(a -> Long.parseLong(a.substring("--max-file-mib=".length())) << 20)
                .orElse(CompactionOptions.DEFAULT_MAX_FILE_BYTES);
        int shareWorkers = o.args().stream().filter(a -> a.startsWith("--share-workers=")).findFirst()
                .map(a -> Integer.parseInt(a.substring("--share-workers=".length()))).orElse(1);
        Contender c = new RewriterContender("ours-sorted", s -> new SortedRewriter(s, scratch, Uuid7.system(),
                RowVerification.CHECKSUMS, shareWorkers), o.budgetBytes(),
                CompactionOptions.DEFAULT_FAN_IN, maxFileBytes);
        System.gc();
        HeapPeak.reset();
        Map<String, Contest.Result> r = new Contest(java.util.List.of(c), o.warmups(), o.runs(), ctx.log()).run(f);
        Contest.Result x = r.get("ours-sorted");
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("input MiB", f.mib());
        row.put("rows", f.rows());
        row.put("budget MiB", o.budgetMib());
        row.put("max file MiB", maxFileBytes >> 20);
        row.put("shares", ShareSampler.shareCount(f.bytes(), maxFileBytes));
        row.put("share workers", shareWorkers);
        row.put("max heap MiB", Runtime.getRuntime().maxMemory() >> 20);
        row.put("median s", x.seconds().median());
        row.put("MiB/s", f.mib() / x.seconds().median());
        row.put("peak heap MiB", HeapPeak.bytes() >> 20);
        row.put("spilled runs", x.last().spilledRuns());
        row.put("rows out", x.last().rowsOut());
        row.put("out MiB", x.last().bytesOut() / (double) (1 << 20));
        row.put("row groups", x.last().rowGroups());
        row.put("files", x.last().files());
        return new SuiteReport.Builder(name(), o.command()).shape(f.describe()).row(row).build();
    }
}
