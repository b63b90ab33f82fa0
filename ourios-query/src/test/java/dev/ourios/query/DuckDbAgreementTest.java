package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.RowTime;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.write.WriterOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Query results equal DuckDB's over the same live set (from {@link LiveFiles}), for a table of filter combinations
 * and for seeded random ones. The store mixes uncompacted partitions, a compacted partition whose retired inputs
 * are still present, and late data landed after the commit, so "the live set" is not simply every file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DuckDbAgreementTest {
    static final Instant START = Instant.parse("2026-03-10T08:00:00Z");
    static final String T1 = "acme";
    static final String T2 = "other/tenant";

    TestStore ts;
    LogGenerator gen;
    List<LogRecord> all = new ArrayList<>();
    Connection duck;
    String liveList;
    long expectedT1Rows;

    @BeforeAll
    void setUp(@TempDir Path dir) throws Exception {
        ts = new TestStore(dir, 7);
        gen = new LogGenerator(GeneratorSpec.of(List.of(T1, T2), START, 3, 3, 400, 42));
        for (String t : List.of(T1, T2)) {
            for (int h = 0; h < 3; h++) {
                PartitionKey p = gen.partition(t, h);
                List<String> inputs = new ArrayList<>();
                List<LogRecord> hourRows = new ArrayList<>();
                for (int f = 0; f < 3; f++) {
                    List<LogRecord> rows = gen.file(t, h, f);
                    inputs.add(ts.ingest(p, rows, WriterOptions.ingest().withRowGroupRows(150)));
                    hourRows.addAll(rows);
                }
                if (t.equals(T1)) {
                    all.addAll(hourRows);
                }
                if (h == 1) {
                    // Compacted: the inputs stay present (retired, not yet collected) and must not be read again.
                    String out = ts.compacted(p, hourRows, WriterOptions.compacted(1 << 20).withRowGroupRows(200));
                    ts.commit(p, 1, out, inputs, hourRows.size());
                    // Late data after the commit: visible at once.
                    List<LogRecord> late = gen.file(t, 2, 0).stream()
                            .map(r -> shift(r, -3600_000_000_000L)).toList();
                    ts.ingest(p, late);
                    if (t.equals(T1)) {
                        all.addAll(late);
                    }
                }
            }
        }
        expectedT1Rows = all.size();
        List<String> paths = ts.liveFiles().paths(T1, java.util.Optional.empty(), java.util.Optional.empty());
        assertEquals(3 + 2 + 3, paths.size(), paths.toString()); // hour 1: compacted + late file
        liveList = paths.stream().map(p -> "'" + p + "'").collect(Collectors.joining(",", "[", "]"));
        Properties props = new Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        duck = DriverManager.getConnection("jdbc:duckdb:", props);
    }

    @AfterAll
    void tearDown() throws Exception {
        if (duck != null) {
            duck.close();
        }
    }

    /** The same row with both times moved by {@code delta} (late data is a copy moved into another hour). */
    static LogRecord shift(LogRecord r, long delta) {
        return LogRecord.builder(r.tenantId()).templateId(r.templateId()).templateVersion(r.templateVersion())
                .timeUnixNano(r.timeUnixNano() == 0 ? 0 : r.timeUnixNano() + delta)
                .observedTimeUnixNano(r.observedTimeUnixNano() + delta).severityNumber(r.severityNumber())
                .severityText(r.severityText()).scopeName(r.scopeName()).scopeVersion(r.scopeVersion())
                .attributes(r.attributes()).resourceAttributes(r.resourceAttributes()).traceId(r.traceId())
                .spanId(r.spanId()).flags(r.flags()).bodyKind(r.bodyKind()).body(r.body()).params(r.params())
                .separators(r.separators()).confidence(r.confidence()).lossyFlag(r.lossyFlag())
                .serviceName(r.serviceName()).build();
    }

    @Test
    void everyRowExactlyOnce() throws Exception {
        QueryResult r = ts.engine().collect(Query.tenant(T1));
        assertEquals(expectedT1Rows, r.rows().size());
        assertEquals(expectedT1Rows, r.stats().rows());
        assertEquals(3, r.stats().partitions());
        assertEquals(8, r.stats().files());
        assertEquals(expectedT1Rows, duckCount(Query.tenant(T1)));
        // Newest first across and within partitions.
        for (int i = 1; i < r.rows().size(); i++) {
            assertTrue(RowTime.of(r.rows().get(i - 1)) >= RowTime.of(r.rows().get(i)), "row " + i);
        }
        // The other tenant is never touched.
        assertTrue(r.rows().stream().allMatch(x -> x.tenantId().equals(T1)));
    }

    @Test
    void tableOfFilterCombinations() throws Exception {
        LogRecord lossy = all.stream().filter(x -> x.body() != null).findFirst().orElseThrow();
        LogRecord traced = all.stream().filter(x -> x.traceId() != null).skip(17).findFirst().orElseThrow();
        LogRecord clean = all.stream().filter(x -> x.body() == null && !x.params().isEmpty()).findFirst().orElseThrow();
        String top = gen.services().get(0).name();
        String rare = gen.services().get(gen.services().size() - 1).name();
        Instant h1 = START.plus(Duration.ofHours(1));
        String paramText = new String(clean.params().get(0).value(), StandardCharsets.UTF_8);
        List<Query> table = List.of(
                Query.tenant(T1).limit(10),
                Query.tenant(T1).order(Query.Order.OLDEST_FIRST).limit(25),
                Query.tenant(T1).window(h1, h1.plus(Duration.ofHours(1))),
                Query.tenant(T1).window(h1.minus(Duration.ofMinutes(30)), h1.plus(Duration.ofMinutes(30)))
                        .order(Query.Order.OLDEST_FIRST),
                Query.tenant(T1).window(h1.plusSeconds(600), h1.plusSeconds(660)).service(top),
                Query.tenant(T1).service(rare),
                Query.tenant(T1).service(top).severityMin(13).limit(50),
                Query.tenant(T1).severityMin(17),
                Query.tenant(T1).templateId(lossy.templateId()),
                Query.tenant(T1).templateId(clean.templateId()).window(START, h1).limit(5),
                Query.tenant(T1).traceId(traced.traceId()),
                Query.tenant(T1).bodyContains("a"),
                Query.tenant(T1).bodyContains(paramText),
                Query.tenant(T1).bodyContains(paramText).service(clean.serviceName()).order(Query.Order.OLDEST_FIRST),
                Query.tenant(T1).service("no-such-service"),
                Query.tenant(T1).window(START.minus(Duration.ofDays(1)), START),
                Query.tenant(T1).limit(0),
                Query.tenant("nobody"));
        int nonEmpty = 0;
        for (Query q : table) {
            nonEmpty += compare(q, "table") > 0 ? 1 : 0;
        }
        assertTrue(nonEmpty >= table.size() - 4, "only " + nonEmpty + " queries returned rows");
    }

    @Test
    void randomCombinationsProperty() throws Exception {
        long seed = System.nanoTime();
        System.out.println("DuckDbAgreementTest.randomCombinationsProperty seed=" + seed);
        Random rnd = new Random(seed);
        for (int i = 0; i < 30; i++) {
            LogRecord pick = all.get(rnd.nextInt(all.size()));
            Query q = Query.tenant(T1);
            if (rnd.nextBoolean()) {
                long lo = START.toEpochMilli() + rnd.nextLong(3 * 3600_000L);
                long len = 1000L + rnd.nextLong(rnd.nextBoolean() ? 120_000L : 7200_000L);
                q = q.window(Instant.ofEpochMilli(lo), Instant.ofEpochMilli(lo + len));
            }
            if (rnd.nextInt(3) == 0) {
                q = q.service(pick.serviceName());
            }
            if (rnd.nextInt(4) == 0) {
                q = q.templateId(pick.templateId());
            }
            if (rnd.nextInt(4) == 0) {
                q = q.severityMin(List.of(1, 9, 13, 17, 21).get(rnd.nextInt(5)));
            }
            if (rnd.nextInt(6) == 0 && pick.traceId() != null) {
                q = q.traceId(pick.traceId());
            }
            if (rnd.nextInt(5) == 0 && !pick.params().isEmpty() && pick.params().get(0).value() != null) {
                q = q.bodyContains(new String(pick.params().get(0).value(), StandardCharsets.UTF_8));
            }
            if (rnd.nextBoolean()) {
                q = q.limit(rnd.nextInt(200));
            }
            q = q.order(rnd.nextBoolean() ? Query.Order.NEWEST_FIRST : Query.Order.OLDEST_FIRST);
            compare(q, "seed " + seed + " query " + i);
        }
    }

    private int compare(Query q, String ctx) throws Exception {
        QueryResult ours = ts.engine().collect(q);
        List<String> theirs = duckRows(q);
        List<String> mine = ours.rows().stream().map(DuckDbAgreementTest::fingerprint).toList();
        String msg = ctx + ": " + q;
        assertEquals(theirs.size(), mine.size(), msg);
        assertEquals(theirs, mine, msg);
        assertEquals(mine.size(), ours.stats().rows(), msg);
        assertEquals(ours.stats().rowGroupsTotal(), ours.stats().rowGroupsScanned() + ours.stats().rowGroupsPruned(),
                msg);
        if (q.limit().isEmpty()) {
            assertEquals(duckCount(q), mine.size(), msg);
        }
        System.out.println(ctx + ": " + mine.size() + " rows, " + ours.stats().toJson());
        return mine.size();
    }

    static String fingerprint(LogRecord r) {
        return RowTime.of(r) + "|" + r.serviceName() + "|" + r.templateId() + "|"
                + r.severityNumber() + "|" + Bytes.hex(r.traceId());
    }

    private static final String LINE = "coalesce(decode(body), array_to_string(list_transform(range(1, len(separators)"
            + " + 1), lambda i: decode(separators[i]) || coalesce(decode(params[i].value), '')), ''))";

    private String where(Query q, List<Object> args) {
        StringBuilder w = new StringBuilder("tenant_id = ?");
        args.add(q.tenant());
        if (q.from().isPresent()) {
            w.append(" AND epoch_ns(effective_time_unix_nano) >= ?");
            args.add(q.fromNanos());
        }
        if (q.to().isPresent()) {
            w.append(" AND epoch_ns(effective_time_unix_nano) < ?");
            args.add(q.toNanos());
        }
        q.service().ifPresent(s -> {
            w.append(" AND \"resource.service.name\" = ?");
            args.add(s);
        });
        if (q.templateId().isPresent()) {
            w.append(" AND template_id = ?");
            args.add(q.templateId().getAsLong());
        }
        if (q.severityMin().isPresent()) {
            w.append(" AND severity_number >= ?");
            args.add(q.severityMin().getAsInt());
        }
        q.traceId().ifPresent(t -> {
            w.append(" AND trace_id = from_hex(?)");
            args.add(Bytes.hex(t));
        });
        q.bodyContains().ifPresent(s -> {
            w.append(" AND contains(").append(LINE).append(", ?)");
            args.add(s);
        });
        return w.toString();
    }

    private List<String> duckRows(Query q) throws Exception {
        List<Object> args = new ArrayList<>();
        String dir = q.order() == Query.Order.NEWEST_FIRST ? "DESC" : "ASC";
        String sql = "SELECT epoch_ns(effective_time_unix_nano), \"resource.service.name\","
                + " CAST(template_id AS VARCHAR), severity_number, lower(hex(trace_id))"
                + " FROM read_parquet(" + liveList + ", union_by_name = true) WHERE " + where(q, args)
                + " ORDER BY epoch_ns(effective_time_unix_nano) " + dir
                + (q.limit().isPresent() ? " LIMIT " + q.limit().getAsLong() : "");
        List<String> out = new ArrayList<>();
        try (PreparedStatement st = prepare(sql, args); var rs = st.executeQuery()) {
            while (rs.next()) {
                String trace = rs.getString(5);
                out.add(rs.getLong(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getInt(4) + "|"
                        + (trace == null ? null : trace));
            }
        }
        return out;
    }

    private long duckCount(Query q) throws Exception {
        List<Object> args = new ArrayList<>();
        String sql = "SELECT count(*) FROM read_parquet(" + liveList + ", union_by_name = true) WHERE "
                + where(q, args);
        try (PreparedStatement st = prepare(sql, args); var rs = st.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private PreparedStatement prepare(String sql, List<Object> args) throws Exception {
        PreparedStatement st = duck.prepareStatement(sql);
        for (int i = 0; i < args.size(); i++) {
            st.setObject(i + 1, args.get(i));
        }
        return st;
    }
}
