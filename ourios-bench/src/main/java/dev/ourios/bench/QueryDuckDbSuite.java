package dev.ourios.bench;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.ReadSide;
import dev.ourios.query.QueryStats;
import io.opentelemetry.api.metrics.MeterProvider;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Query latency against DuckDB over the same live set: a realistic compacted hour (the rfc0036-2 partition after one
 * sweep), four queries a log user runs (one service in a 30 s window, one trace id, one template id, severity
 * outliers), ours through {@link QueryEngine} and DuckDB 2 threads through {@code read_parquet} over the live
 * files with the same predicates; in-process, warm, alternating, medians (20 rounds times the scale, at least 3, or
 * {@code --runs} when that is more, after 5 warm-up rounds times the scale, at least 1, or {@code --warmups} when
 * that is more). Both must return the same row count. Both hand every matching row to the caller: ours as records
 * to a sink, DuckDB as a result set walked to the end.
 * Then the search cases of {@link SearchCases}, ours with and without the token index.
 */
public final class QueryDuckDbSuite implements Suite {
    @Override
    public String name() {
        return "query-duckdb";
    }

    record Case(String name, Query ours, String where) {
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        BenchOptions o = ctx.options();
        Fixture before = ctx.fixtures().demo(32,
                Fixtures.demoRowsFor((long) (Rfc0036Suite.FULL_BYTES * o.scale()), 32), 4);
        Fixture live = Partitions.compacted(ctx.fixtures(), before, "query-duckdb-compacted").fixture();
        LogRecord probe = middleRowWithTrace(live);
        Instant from = Fixtures.HOUR.plusSeconds(1800);
        Query tenant = Query.tenant(Fixtures.TENANT);
        String trace = HexFormat.of().formatHex(probe.traceId());
        List<Case> cases = List.of(
                new Case("service + 30 s window", tenant.service("checkout").window(from, from.plusSeconds(30)),
                        "\"resource.service.name\" = 'checkout' AND effective_time_unix_nano >= '" + from
                                + "'::TIMESTAMPTZ_NS AND effective_time_unix_nano < '" + from.plusSeconds(30)
                                + "'::TIMESTAMPTZ_NS"),
                new Case("trace id", tenant.traceId(probe.traceId()), "trace_id = from_hex('" + trace + "')"),
                new Case("template id", tenant.templateId(probe.templateId()),
                        "template_id = " + probe.templateId()),
                new Case("severity >= 17 (ERROR+)", tenant.severityMin(17), "severity_number >= 17"));
        // --warmups and --runs raise the rounds of a small scale (whose scaled counts are few): a warm engine has its
        // decoders compiled, which takes more than one round, and a median needs more than three.
        int warmups = Math.max(ctx.scaled(5, 1), o.warmups());
        int iterations = Math.max(ctx.scaled(20, 3), o.runs());
        QueryEngine engine = ReadSide.over(live.store()).queryEngine(MeterProvider.noop()); // as `ourios serve`'s
        QuietStores.await(live.store());
        SuiteReport.Builder report = new SuiteReport.Builder(name(), o.command()).shape(before.describe())
                .shape("live set: " + live.describe() + " (one sweep of the partition above)");
        try (Connection c = DuckDbContender.connect(); Statement s = c.createStatement()) {
            s.execute("SET threads=2");
            for (Case k : cases) {
                String sql = "SELECT * FROM read_parquet(" + DuckDbContender.list(live) + ") WHERE " + k.where();
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    OursAgainstDuckDb.Timed t = OursAgainstDuckDb.time(engine, k.ours(), ps, warmups, iterations);
                    long[] rows = {t.oursRows(), t.duckRows()};
                    QueryStats stats = t.stats();
                    if (rows[0] != rows[1]) {
                        throw new IllegalStateException(k.name() + ": ours returned " + rows[0] + " rows, DuckDB "
                                + rows[1] + " (" + sql + ")");
                    }
                    Samples a = t.ours();
                    Samples b = t.duck();
                    report.row(row(k.name(), "ours", rows[0], a, stats));
                    report.row(row(k.name(), "duckdb-2t", rows[1], b, null));
                    report.note(String.format("%s: DuckDB median / ours median = %.2f (> 1: ours is faster)",
                            k.name(), b.median() / a.median()));
                }
            }
            for (SearchCases.Case k : SearchCases.of(live, tenant, probe)) {
                String sql = "SELECT * FROM read_parquet(" + DuckDbContender.list(live) + ") WHERE " + k.where();
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    OursAgainstDuckDb.Timed indexed = OursAgainstDuckDb.time(engine, k.indexed(), ps, warmups,
                            iterations);
                    OursAgainstDuckDb.Timed scanned = OursAgainstDuckDb.time(engine, k.scanned(), ps, warmups,
                            iterations);
                    if (indexed.oursRows() != indexed.duckRows() || scanned.oursRows() != indexed.duckRows()) {
                        throw new IllegalStateException(k.name() + ": ours returned " + indexed.oursRows()
                                + " rows with the index, " + scanned.oursRows() + " without, DuckDB "
                                + indexed.duckRows() + " (" + sql + ")");
                    }
                    report.row(row(k.name(), "ours", indexed.oursRows(), indexed.ours(), indexed.stats()));
                    report.row(row(k.name(), "ours-noindex", scanned.oursRows(), scanned.ours(), scanned.stats()));
                    report.row(row(k.name(), "duckdb-2t", indexed.duckRows(), indexed.duck(), null));
                    report.note(String.format("%s: DuckDB median / ours median = %.2f, ours without the index /"
                            + " ours = %.2f (> 1: ours is faster)", k.name(),
                            indexed.duck().median() / indexed.ours().median(),
                            scanned.ours().median() / indexed.ours().median()));
                }
            }
        }
        report.note("Search cases (docs/spec/query.md): ours is the search through QueryEngine with the files' token"
                + " index, ours-noindex the same search with the index switched off; DuckDB's twin matches the"
                + " word with regexp_matches over the line (body, or separators and parameters joined) and"
                + " attributes with json_contains / json_extract.");
        report.note("DuckDB: SET threads=2, `SELECT * FROM read_parquet([live files]) WHERE …`, every row of the "
                + "result set visited; ours: QueryEngine.run over the manifest's live set, every row decoded and "
                + "handed to a sink. Warm: " + warmups + " warm-up rounds, then " + iterations + " alternating.");
        return report.build();
    }

    private static Map<String, Object> row(String query, String engine, long rows, Samples ms, QueryStats stats) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("query", query);
        row.put("engine", engine);
        row.put("rows", rows);
        row.put("row groups scanned / total", stats == null ? "—"
                : stats.rowGroupsScanned() + " / " + stats.rowGroupsTotal());
        row.put("skipped by the token index", stats == null ? "—" : stats.rowGroupsIndexSkipped());
        row.put("bytes read", stats == null ? "—" : stats.bytesRead());
        row.put("median ms", ms.median());
        row.put("min ms", ms.min());
        row.put("max ms", ms.max());
        return row;
    }

    /** A row with a trace id from the middle of the live file: a trace-id query that has an answer. */
    static LogRecord middleRowWithTrace(Fixture live) throws java.io.IOException {
        long target = live.rows() / 2;
        long i = 0;
        try (LogFileReader r = LogFileReader.open(live.store(), live.inputs().get(0).key(), ReadOptions.all())) {
            LogRecord row;
            while ((row = r.read()) != null) {
                if (i++ >= target && row.traceId() != null && row.templateId() != 0) {
                    return row;
                }
            }
        }
        throw new IllegalStateException("no row with a trace id in " + live.describe());
    }
}
