package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.read.PartitionMismatchException;
import dev.ourios.parquet.write.WriterOptions;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query read by several threads (files and row groups shared out) returns exactly what one thread returns, row
 * for row and in the same order, with the same file and row-group counts; a failure on any thread fails the query.
 */
class ParallelScanTest {
    static final Instant START = Instant.parse("2026-05-01T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void anyThreadCountGivesTheSameRowsInTheSameOrder() throws Exception {
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        System.out.println("ParallelScanTest seed " + seed);
        Random rnd = new Random(seed);
        TestStore ts = new TestStore(dir, seed);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), START, 2, 6, 600 + rnd.nextInt(900), 6)
                .withSeed(rnd.nextLong()));
        List<LogRecord> all = new ArrayList<>();
        // Hour 0: a compacted file of many small row groups, committed, plus two ingest files landed after it.
        PartitionKey p0 = gen.partition("t", 0);
        List<LogRecord> compacted = new ArrayList<>();
        for (int f = 0; f < 4; f++) {
            compacted.addAll(gen.file("t", 0, f));
        }
        String out = ts.compacted(p0, compacted, WriterOptions.compacted(1 << 20)
                .withRowGroupRows(100 + rnd.nextInt(400)));
        ts.commit(p0, 1, out, List.of(), compacted.size());
        all.addAll(compacted);
        for (int f = 4; f < 6; f++) {
            List<LogRecord> rows = gen.file("t", 0, f);
            ts.ingest(p0, rows);
            all.addAll(rows);
        }
        // Hour 1: ingest files only, one of them with small row groups.
        PartitionKey p1 = gen.partition("t", 1);
        for (int f = 0; f < 6; f++) {
            List<LogRecord> rows = gen.file("t", 1, f);
            ts.ingest(p1, rows, f == 2 ? WriterOptions.ingest().withRowGroupRows(150) : WriterOptions.ingest());
            all.addAll(rows);
        }

        QueryEngine one = ts.engine(1);
        // Files shared whatever is left of them (2 and 3 threads), and the default threshold (2 threads).
        List<QueryEngine> more = List.of(ts.engine(2), ts.engine(3),
                new QueryEngine(ts.store, ts.layout, ts.tables, MeterProvider.noop(), 2));
        // Every engine's footer cache warm before the first comparison: a cold engine counts the footers' bytes and
        // a warm one does not, which would decide the bytes comparison below rather than the scan.
        one.count(Query.tenant("t"));
        for (QueryEngine engine : more) {
            engine.count(Query.tenant("t"));
        }
        for (int i = 0; i < 40; i++) {
            Query q = randomQuery(rnd, gen, all);
            // Likewise the indexes, bloom filters and dictionaries the query's pruning reads: kept by the first
            // engine to read them, they would be counted by that engine's read alone.
            one.collect(q);
            for (QueryEngine engine : more) {
                engine.collect(q);
            }
            QueryResult expected = one.collect(q);
            List<LogRecord> matching = all.stream().filter(new RowMatcher(q)::matches).toList();
            if (q.limit().isEmpty()) {
                assertEquals(counted(matching), counted(expected.rows()), "one thread, " + q);
            }
            // A count ignores the limit; without one it sees the same files and groups as the rows' read, and reads
            // no more bytes.
            for (QueryEngine engine : List.of(one, more.get(0), more.get(2))) {
                QueryStats c = engine.count(q);
                String what = "count, " + q + " (seed " + seed + ")";
                assertEquals(matching.size(), c.rows(), what);
                if (q.limit().isPresent()) {
                    continue; // the rows' read stopped at the partition that filled the limit
                }
                assertEquals(expected.stats().files(), c.files(), what);
                assertEquals(expected.stats().rowGroupsScanned(), c.rowGroupsScanned(), what);
                if (q.bodyContains().isEmpty() && engine == one) {
                    assertTrue(c.bytesRead() <= expected.stats().bytesRead(), what);
                }
            }
            for (QueryEngine engine : more) {
                QueryResult got = engine.collect(q);
                String what = q + " (seed " + seed + ")";
                assertEquals(expected.rows().size(), got.rows().size(), what);
                assertTrue(expected.rows().equals(got.rows()), "other rows or another order: " + what);
                assertEquals(expected.stats().files(), got.stats().files(), what);
                assertEquals(expected.stats().rowGroupsTotal(), got.stats().rowGroupsTotal(), what);
                assertEquals(expected.stats().rowGroupsScanned(), got.stats().rowGroupsScanned(), what);
                assertTrue(got.stats().bytesRead() >= expected.stats().bytesRead() / 2, what);
            }
        }
    }

    @Test
    void aBadRowOnAnyThreadFailsTheQueryNamingTheFile() throws Exception {
        TestStore ts = new TestStore(dir, 3);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), START, 1, 2, 2000, 4));
        PartitionKey p = gen.partition("t", 0);
        List<LogRecord> rows = new ArrayList<>(gen.file("t", 0, 0));
        rows.addAll(gen.file("t", 0, 1));
        // A row of the next hour, sorted among the second service's rows: in a row group past the first.
        String middle = gen.services().stream().map(s -> s.name()).sorted().toList().get(1);
        rows.add(LogRecord.builder("t").serviceName(middle).severityNumber(9)
                .timeUnixNano((START.getEpochSecond() + 3600) * 1_000_000_000L).build());
        String out = ts.compacted(p, rows, WriterOptions.compacted(1 << 20).withRowGroupRows(250));
        ts.commit(p, 1, out, List.of(), rows.size());
        for (int threads = 1; threads <= 3; threads++) {
            QueryEngine engine = ts.engine(threads);
            PartitionMismatchException e = assertThrows(PartitionMismatchException.class,
                    () -> engine.collect(Query.tenant("t").severityMin(1)));
            assertTrue(e.getMessage().contains(TestStore.name(out)), e.getMessage());
            // Counting decodes only the query's columns, but still checks every row's partition.
            e = assertThrows(PartitionMismatchException.class, () -> engine.count(Query.tenant("t").severityMin(1)));
            assertTrue(e.getMessage().contains(TestStore.name(out)), e.getMessage());
        }
    }

    private static Query randomQuery(Random rnd, LogGenerator gen, List<LogRecord> all) {
        Query q = Query.tenant("t");
        LogRecord sample = all.get(rnd.nextInt(all.size()));
        switch (rnd.nextInt(6)) {
            case 0 -> {
                Instant from = START.plus(Duration.ofMinutes(rnd.nextInt(110)));
                q = q.window(from, from.plus(Duration.ofMinutes(1 + rnd.nextInt(20))))
                        .service(gen.services().get(rnd.nextInt(gen.services().size())).name());
            }
            case 1 -> q = q.severityMin(1 + rnd.nextInt(24));
            case 2 -> q = sample.traceId() != null ? q.traceId(sample.traceId()) : q.severityMin(17);
            case 3 -> q = q.templateId(sample.templateId());
            case 4 -> q = q.bodyContains(rnd.nextBoolean() ? "error" : "a");
            default -> {
                // everything
            }
        }
        if (rnd.nextInt(3) == 0) {
            q = q.limit(1 + rnd.nextInt(rnd.nextBoolean() ? 5 : 2000));
        }
        return q.order(rnd.nextBoolean() ? Query.Order.OLDEST_FIRST : Query.Order.NEWEST_FIRST);
    }

    /** The rows as a multiset (order aside). */
    private static Map<LogRecord, Integer> counted(List<LogRecord> rows) {
        Map<LogRecord, Integer> counts = new HashMap<>();
        for (LogRecord r : rows) {
            counts.merge(r, 1, Integer::sum);
        }
        return counts;
    }
}
