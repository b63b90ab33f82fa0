package dev.ourios.bench;

import dev.ourios.query.Query;
import java.time.Instant;

/**
 * RFC0036.2, materialization: a one-service 30-second window over a realistic compacted hour (demo-shaped, 15
 * services, 32 ingest files, ~128 MiB at full size) against the same hour uncompacted: row groups scanned/total
 * and bytes read (the reference measured 7.61× fewer bytes on real data), plus warm latency.
 */
public final class Rfc0036Suite implements Suite {
    static final long FULL_BYTES = 128L << 20;

    @Override
    public String name() {
        return "rfc0036-2";
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        BenchOptions o = ctx.options();
        Fixture before = ctx.fixtures().demo(32, Fixtures.demoRowsFor((long) (FULL_BYTES * o.scale()), 32), 4);
        Partitions.Compacted after = Partitions.compacted(ctx.fixtures(), before, "rfc0036-compacted");
        String service = "checkout";
        Instant from = Fixtures.HOUR.plusSeconds(1800);
        Query q = Query.tenant(Fixtures.TENANT).service(service).window(from, from.plusSeconds(30));
        int iterations = ctx.scaled(40, 3);
        QueryContest.Result r = new QueryContest(ctx.scaled(10, 1), iterations).run(q, before.store(),
                after.fixture().store());
        SuiteReport.Builder report = new SuiteReport.Builder(name(), o.command()).shape(before.describe())
                .shape("query: service = " + service + ", window [" + from + ", +30 s)");
        report.row(QueryContest.row(before.shape(), "32 ingest files", r.before()));
        report.row(QueryContest.row(before.shape(), "1 compacted file", r.after()));
        report.note(String.format("bytes read uncompacted / compacted = %.2f×; latency ratio = %.2f× (medians of "
                + "%d alternating iterations)", r.before().stats().bytesRead()
                / (double) r.after().stats().bytesRead(), r.ratio(), iterations));
        return report.build();
    }
}
