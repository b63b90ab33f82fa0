package dev.ourios.bench;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.query.Query;

/**
 * B2-post: a template-exact count over 32 small ingest files (2,000 rows each) against the same rows after one
 * sweep compacted them into one file. In-process and warm; the reference measured 12.78 ms → 2.10 ms (6.1×).
 */
public final class B2PostSuite implements Suite {
    static final int FILES = 32;
    static final int ROWS = 2_000;

    @Override
    public String name() {
        return "b2post";
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        BenchOptions o = ctx.options();
        // The shape is fixed by the suite's definition (it is already small); the scale only trims the iterations.
        Fixture before = ctx.fixtures().demo(FILES, ROWS, 3);
        Partitions.Compacted after = Partitions.compacted(ctx.fixtures(), before, "b2post-compacted");
        long templateId = firstTemplate(before);
        Query q = Query.tenant(Fixtures.TENANT).templateId(templateId);
        int iterations = ctx.scaled(400, 5);
        // A count, as the reference measured: QueryEngine.count decides rows on the template column alone. Warm
        // means the JIT has compiled both sides: the 32-file side takes over a thousand rounds to get there, and
        // measured before that it reads about twice its warm time (and the ratio twice the warm one).
        QueryContest.Result r = new QueryContest(ctx.scaled(1600, 2), iterations, true).run(q, before.store(),
                after.fixture().store());
        SuiteReport.Builder report = new SuiteReport.Builder(name(), o.command()).shape(before.describe())
                .shape("query: tenant " + Fixtures.TENANT + ", template_id = " + Long.toUnsignedString(templateId)
                        + " (the most common template of the first row's service), no window, count of rows "
                        + "(QueryEngine.count)");
        report.row(QueryContest.row(before.shape(), "32 ingest files", r.before()));
        report.row(QueryContest.row(before.shape(), "1 compacted file", r.after()));
        report.note(String.format("latency ratio uncompacted / compacted = %.2f× (medians of %d alternating "
                + "iterations after %d warm-up rounds; reference: 6.1×)", r.ratio(), iterations,
                ctx.scaled(1600, 2)));
        return report.build();
    }

    static long firstTemplate(Fixture f) throws java.io.IOException {
        try (LogFileReader r = LogFileReader.open(f.store(), f.inputs().get(0).key(), ReadOptions.all())) {
            LogRecord row;
            while ((row = r.read()) != null) {
                if (row.templateId() != 0) {
                    return row.templateId();
                }
            }
        }
        throw new IllegalStateException("no templated row in " + f.describe());
    }
}
