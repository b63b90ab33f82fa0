package dev.ourios.bench;

import dev.ourios.store.ObjectInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * D3, output: one real sweep (product defaults) over a copy of each D2 partition; the live set afterwards — file
 * count, bytes against the input, row groups, and the fraction of live files under 128 MiB.
 */
public final class D3Suite implements Suite {
    static final long SMALL = 128L << 20;

    @Override
    public String name() {
        return "d3";
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        BenchOptions o = ctx.options();
        SuiteReport.Builder report = new SuiteReport.Builder(name(), o.command());
        Fixture demo = D2Suite.demoFixture(ctx);
        Fixture ref = ctx.fixtures().incompressible(D2Suite.FILES, ctx.scaled(D2Suite.REF_ROWS, 4),
                D2Suite.REF_BODY, 2);
        for (Fixture in : List.of(demo, ref)) {
            report.shape(in.describe());
            Partitions.Compacted c = Partitions.compacted(ctx.fixtures(), in, "d3-" + in.shape());
            Fixture out = c.fixture();
            long small = out.inputs().stream().filter(x -> x.size() < SMALL).count();
            int groups = 0;
            for (ObjectInfo x : out.inputs()) {
                groups += Footers.rowGroups(out.store(), x.key());
            }
            if (out.rows() != in.rows()) {
                throw new IllegalStateException("sweep changed the row count: " + in.rows() + " -> " + out.rows());
            }
            row(report, in, "before (inputs)", in.inputs().size(), -1, in.inputs().stream()
                    .filter(x -> x.size() < SMALL).count(), null);
            row(report, out, "after one sweep", out.inputs().size(), groups, small, c.sweepSeconds());
            report.note(String.format("%s: output/input bytes = %.3f", in.shape(), out.bytes() / (double) in.bytes()));
            Fixtures.deleteTree(out.root());
        }
        report.note("At smoke and reduced scales every file is under 128 MiB by construction; the fraction is only "
                + "meaningful at full size (one ~0.5 GiB partition becomes one file).");
        return report.build();
    }

    private static void row(SuiteReport.Builder report, Fixture f, String when, int files, int groups, long small,
            Double sweepSeconds) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("shape", f.shape());
        row.put("live set", when);
        row.put("files", files);
        row.put("bytes", f.bytes());
        row.put("rows", f.rows());
        row.put("row groups", groups < 0 ? null : groups);
        row.put("files < 128 MiB", String.format("%d / %d (%.0f %%)", small, files, 100.0 * small / files));
        row.put("sweep s", sweepSeconds);
        report.row(row);
    }
}
