package dev.ourios.bench;

import dev.ourios.compaction.RowVerification;
import dev.ourios.compaction.SortedRewriter;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.core.Uuid7;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the row checksum verification costs, against its goal of under 5 % of D2: the sorted rewrite of the D2 demo
 * partition with both checksums against the same rewrite with hashing replaced by row counting, alternating. The
 * goal is on compaction time (wall); the CPU the helpers spend on the other core is reported beside it.
 */
public final class ChecksumSuite implements Suite {
    @Override
    public String name() {
        return "checksum";
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        BenchOptions o = ctx.options();
        Fixture f = D2Suite.demoFixture(ctx);
        Path scratch = ctx.fixtures().scratch("checksum-scratch");
        int fanIn = CompactionOptions.DEFAULT_FAN_IN;
        List<Contender> contenders = List.of(
                new RewriterContender("with-checksum", s -> new SortedRewriter(s, scratch), o.budgetBytes(), fanIn),
                new RewriterContender("without-checksum",
                        s -> new SortedRewriter(s, scratch, Uuid7.system(), RowVerification.ROW_COUNTS),
                        o.budgetBytes(), fanIn));
        Map<String, Contest.Result> r = new Contest(contenders, o.warmups(), o.runs(), ctx.log()).run(f);
        double with = r.get("with-checksum").seconds().median();
        double without = r.get("without-checksum").seconds().median();
        SuiteReport.Builder report = new SuiteReport.Builder(name(), o.command()).shape(f.describe());
        for (Contest.Result x : r.values()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("variant", x.contender().name());
            row.put("median s", x.seconds().median());
            row.put("min s", x.seconds().min());
            row.put("max s", x.seconds().max());
            row.put("MiB/s", f.mib() / x.seconds().median());
            row.put("cpu s (compaction thread)", x.cpuSeconds().median());
            row.put("process cpu s", x.processCpuSeconds().median());
            row.put("rows out", x.last().rowsOut());
            report.row(row);
        }
        report.note(String.format("checksum overhead = (with − without) / without = %.1f %% of wall time (goal < 5 %%)",
                100 * (with - without) / without));
        double cpuWith = r.get("with-checksum").processCpuSeconds().median();
        double cpuWithout = r.get("without-checksum").processCpuSeconds().median();
        report.note(String.format("CPU the checksum costs, on every core (read side on the compacting thread while it "
                + "waits for the input reader, write side on a helper) = %.1f %% of the process CPU time",
                100 * (cpuWith - cpuWithout) / cpuWithout));
        return report.build();
    }
}
