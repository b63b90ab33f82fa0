package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.verify.Verifier;
import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.query.Query;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deletion, property-tested with seeded random filters over generated data: after a deletion request, the tenant's
 * live rows are exactly the rows before minus the rows the filter matches (as a multiset of row identities), the
 * other tenant is untouched, DuckDB reading the live files independently counts the same rows (and, for filters it
 * can express in SQL, the same matching rows before), each rewritten partition's manifest records a {@code delete}
 * commit, {@code ourios verify}'s scrub passes, and a second run of the same request changes nothing.
 * {@code -Dourios.seed=N} replays a run.
 */
class DeletionPropertyTest {
    private static final int ROUNDS = 5;

    @TempDir
    Path dir;

    @Test
    void aDeletionRemovesExactlyTheMatchingRowsAndDuckDbAgrees() throws Exception {
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        System.out.println("DeletionPropertyTest seed " + seed);
        Random rnd = new Random(seed);
        for (int round = 0; round < ROUNDS; round++) {
            Path root = dir.resolve("r" + round);
            LocalObjectStore store = new LocalObjectStore(root.resolve("store"));
            TestStores.generate(store, TestStores.spec(List.of("acme", "beta"), 3, 3, 120, rnd.nextLong()));
            if (rnd.nextBoolean()) {
                // Half the rounds delete from compacted partitions, half from ingest files.
                TestStores.runner(store, root.resolve("scratch0")).sweep(PartitionFilter.all(), r -> { });
            }
            List<LogRecord> before = rows(store, "acme");
            Map<String, Long> betaBefore = counts(rows(store, "beta"));
            Query q = randomFilter(rnd, before);
            String ctx = "seed " + seed + " round " + round + ": " + q;
            DeletionRequest request = new DeletionRequest(q);
            Predicate<LogRecord> matches = request.matches();
            List<LogRecord> expected = before.stream().filter(matches.negate()).toList();
            long matching = before.size() - expected.size();
            System.out.println("round " + round + ": " + matching + " of " + before.size() + " rows match " + q);

            Deletion deletion = CompactionWiring.deletion(DeletionSettings.of(store,
                    CompactionOptions.defaults(root.resolve("scratch"))));
            List<DeletionResult> dry = deletion.run(request, true, r -> { });
            assertEquals(matching, dry.stream().mapToLong(DeletionResult::rowsRemoved).sum(), "dry run: " + ctx);
            assertEquals(counts(before), counts(rows(store, "acme")), "a dry run changes nothing: " + ctx);
            List<String> filesBefore = liveKeys(store, "acme");
            if (!q.bodyContains().isPresent()) {
                assertEquals(matching, duckCount(filesBefore, sqlWhere(q)), "DuckDB's own filter: " + ctx);
            }

            List<DeletionResult> results = deletion.run(request, false, r -> { });
            assertTrue(results.stream().noneMatch(r -> r.status() == DeletionResult.Status.ERROR),
                    results + " " + ctx);
            assertEquals(matching, results.stream().mapToLong(DeletionResult::rowsRemoved).sum(), ctx);
            assertEquals(counts(expected), counts(rows(store, "acme")), "rows after = before − matching: " + ctx);
            assertEquals(betaBefore, counts(rows(store, "beta")), "the other tenant is untouched: " + ctx);
            assertEquals(expected.size(), duckCount(liveKeys(store, "acme"), "true"), "DuckDB after: " + ctx);

            TableReader reader = new TableReader(store, new ManifestCodec());
            for (DeletionResult r : results) {
                if (r.status() == DeletionResult.Status.COMMITTED) {
                    PartitionSnapshot s = reader.snapshot(r.partition());
                    CommitRecord c = s.manifest().orElseThrow().commitRecord().orElseThrow().complete().orElseThrow();
                    assertEquals(CommitKind.DELETE, c.kind(), ctx);
                    assertEquals(r.rowsRemoved(), c.rowsRemoved(), ctx);
                    assertEquals(request.toJson(), c.reason(), ctx);
                    assertTrue(s.live().size() <= 1, "one rewritten file, or none: " + ctx);
                }
            }
            Verifier v = new Verifier(store, new TableLayout(store), reader);
            for (Verifier.PartitionVerdict verdict : v.verify(PartitionFilter.all(), x -> { })) {
                assertTrue(verdict.ok(), verdict.problems() + " " + ctx);
            }
            List<DeletionResult> again = deletion.run(request, false, r -> { });
            assertTrue(again.stream().allMatch(r -> r.status() == DeletionResult.Status.UNCHANGED),
                    "a second run finds nothing to delete: " + again + " " + ctx);
        }
    }

    /** A random filter over the rows: a window inside the three hours, and each optional condition half the time. */
    private static Query randomFilter(Random rnd, List<LogRecord> rows) {
        Instant start = TestStores.HOUR.plusSeconds(rnd.nextInt(3 * 3600));
        Instant end = start.plusSeconds(1 + rnd.nextInt(3 * 3600));
        Query q = Query.tenant("acme").window(start, end);
        LogRecord sample = rows.get(rnd.nextInt(rows.size()));
        if (rnd.nextBoolean() && sample.serviceName() != null) {
            q = q.service(sample.serviceName());
        }
        if (rnd.nextInt(3) == 0) {
            q = q.severityMin(rnd.nextInt(25));
        }
        if (rnd.nextInt(5) == 0 && sample.traceId() != null) {
            q = q.traceId(sample.traceId());
            q = q.window(TestStores.HOUR, TestStores.HOUR.plus(Duration.ofHours(3)));
        }
        if (rnd.nextInt(3) == 0 && sample.body() != null && sample.body().length > 4) {
            String body = new String(sample.body(), StandardCharsets.UTF_8);
            int at = rnd.nextInt(body.length() - 3);
            q = q.bodyContains(body.substring(at, at + 3));
        }
        return q;
    }

    /** The same conditions in DuckDB's SQL over the files as written (no body substring). */
    private static String sqlWhere(Query q) {
        List<String> c = new ArrayList<>();
        String t = "coalesce(nullif(epoch_ns(time_unix_nano), 0), epoch_ns(observed_time_unix_nano), 0)";
        c.add(t + " >= " + q.fromNanos() + " AND " + t + " < " + q.toNanos());
        q.service().ifPresent(s -> c.add("\"resource.service.name\" = '" + s.replace("'", "''") + "'"));
        q.severityMin().ifPresent(s -> c.add("severity_number >= " + s));
        q.traceId().ifPresent(id -> c.add("trace_id = from_hex('" + Bytes.hex(id) + "')"));
        return String.join(" AND ", c);
    }

    private long duckCount(List<String> files, String where) throws Exception {
        if (files.isEmpty()) {
            return 0;
        }
        Properties props = new Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        String list = files.stream().map(f -> "'" + f + "'").collect(Collectors.joining(", "));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:", props);
                ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM read_parquet([" + list
                        + "], union_by_name = true) WHERE " + where)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<String> liveKeys(LocalObjectStore store, String tenant) throws Exception {
        List<String> out = new ArrayList<>();
        for (PartitionKey p : new TableLayout(store).partitions(PartitionFilter.all().withTenants(java.util.Set.of(
                tenant)))) {
            for (ObjectInfo o : TestStores.snapshot(store, p).live()) {
                out.add(store.describe(o.key()));
            }
        }
        return out;
    }

    private static List<LogRecord> rows(LocalObjectStore store, String tenant) throws Exception {
        List<LogRecord> out = new ArrayList<>();
        for (PartitionKey p : new TableLayout(store).partitions(PartitionFilter.all().withTenants(java.util.Set.of(
                tenant)))) {
            out.addAll(TestStores.liveRows(store, p));
        }
        return out;
    }

    private static Map<String, Long> counts(List<LogRecord> rows) {
        Map<String, Long> m = new HashMap<>();
        for (LogRecord r : rows) {
            m.merge(TestStores.identity(r), 1L, Long::sum);
        }
        return m;
    }
}
