package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.RowTime;
import dev.ourios.parquet.read.PartitionMismatchException;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.query.aggregate.CountsOverTime;
import dev.ourios.query.aggregate.CountsRequest;
import dev.ourios.query.aggregate.GroupField;
import dev.ourios.testkit.TestSeed;
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
 * The row-vs-path check decided by a row group's statistics (storage.md 2.5, "The check decided by statistics")
 * gives the answer checking every row gives: counts over time and counts of random queries over a compaction output
 * of this store (rows without a time among them, so only its stored effective times can prove the hour) and late
 * ingest files equal a model computed from the rows themselves; a row of another hour is a hard error whether it is
 * in another writer's file with a stored effective time inside the hour (its statistics are not trusted) or in a
 * compaction output whose statistics do not prove the hour. And the statistics do decide: a compaction output's
 * counts read fewer bytes than the same rows in a file without the footer's token index entry.
 */
class StatisticsCheckPropertyTest {
    private static final String TENANT = "default";
    private static final Instant HOUR = Instant.parse("2026-11-01T10:00:00Z");
    private static final long HOUR_NANOS = HOUR.getEpochSecond() * 1_000_000_000L;
    private static final long NANOS_PER_HOUR = 3_600_000_000_000L;
    private static final List<String> SERVICES = List.of("cart", "checkout", "frontend", "email");
    private static final int[] SEVERITIES = {1, 5, 9, 13, 17, 21};
    private static final List<String> GROUP_BYS = List.of("", "service", "severity");

    @TempDir
    Path dir;

    /** What a trial plants beside the compaction output. */
    private enum Planted {
        NOTHING,
        /** A row of another hour with a stored effective time inside this one, in an ingest file. */
        FORGED_ROW_IN_INGEST_FILE,
        /** The same, in a compacted-shaped file whose footer names no token index. */
        FORGED_ROW_IN_UNINDEXED_FILE,
        /** A row without a time observed in the next hour, in the compaction output itself. */
        NEXT_HOUR_ROW_IN_COMPACTION_OUTPUT
    }

    @Test
    void counts_over_statistics_checked_groups_equal_the_rows_and_a_misplaced_row_fails() throws Exception {
        long seed = TestSeed.announce(StatisticsCheckPropertyTest.class);
        Random random = new Random(seed);
        PartitionKey p = PartitionKey.of(TENANT, HOUR_NANOS);
        for (int trial = 0; trial < 24; trial++) {
            TestStore ts = new TestStore(dir.resolve("trial-" + trial), seed + trial);
            Planted planted = Planted.values()[random.nextInt(Planted.values().length)];
            List<LogRecord> output = rows(random, 100 + random.nextInt(900));
            // Query window and floor first: a planted row matches them, so no pruning can skip it.
            long windowFrom = HOUR_NANOS + random.nextInt(30) * 60_000_000_000L;
            long windowTo = random.nextBoolean() ? HOUR_NANOS + NANOS_PER_HOUR
                    : windowFrom + (1 + random.nextInt(30)) * 60_000_000_000L;
            int floor = random.nextBoolean() ? 0 : SEVERITIES[random.nextInt(SEVERITIES.length)];
            int groupRows = 10 + random.nextInt(300);
            if (planted == Planted.NEXT_HOUR_ROW_IN_COMPACTION_OUTPUT) {
                output.add(LogRecord.builder(TENANT).serviceName(SERVICES.get(0)).severityNumber(21).timeUnixNano(0)
                        .observedTimeUnixNano(HOUR_NANOS + NANOS_PER_HOUR + random.nextInt(1_000_000)).build());
                groupRows = output.size(); // one row group, which the window's statistics cannot prune
            }
            String out = ts.compacted(p, output, WriterOptions.compacted(1 << 20).withRowGroupRows(groupRows));
            ts.commit(p, 1, out, List.of(), output.size());
            List<LogRecord> all = new ArrayList<>(output);
            if (random.nextBoolean()) {
                List<LogRecord> late = rows(random, 1 + random.nextInt(200));
                ts.ingest(p, late);
                all.addAll(late);
            }
            if (planted == Planted.FORGED_ROW_IN_INGEST_FILE || planted == Planted.FORGED_ROW_IN_UNINDEXED_FILE) {
                List<LogRecord> foreign = rows(random, random.nextInt(100));
                long effective = windowFrom + (long) (random.nextDouble() * (windowTo - windowFrom));
                long elsewhere = HOUR_NANOS + (random.nextBoolean() ? 1 : -1) * (1 + random.nextInt(5)) * NANOS_PER_HOUR;
                foreign.add(withTimes(rows(random, 1).get(0), elsewhere, effective, Math.max(floor, 17)));
                ts.ingest(p, foreign, planted == Planted.FORGED_ROW_IN_INGEST_FILE ? WriterOptions.ingest()
                        : WriterOptions.compacted(1 << 20).withTokenIndex(false));
            }
            Duration step = Duration.ofMinutes(List.of(1, 5, 7, 60).get(random.nextInt(4)));
            String groupBy = GROUP_BYS.get(random.nextInt(GROUP_BYS.size()));
            Instant from = instant(windowFrom);
            Instant to = instant(windowTo);
            Query query = Query.tenant(TENANT).window(from, to);
            if (floor > 0) {
                query = query.severityMin(floor);
            }
            CountsRequest request = new CountsRequest(query, from, to, step,
                    groupBy.isEmpty() ? List.of() : List.of(GroupField.parse(groupBy)), 100);
            String context = "trial " + trial + " (" + planted + ", window " + from + " .. " + to + ", floor " + floor
                    + ", step " + step + ", group_by '" + groupBy + "')";
            for (int threads = 1; threads <= 2; threads++) {
                QueryEngine engine = ts.engine(threads);
                if (planted != Planted.NOTHING) {
                    Query q = query;
                    assertThrows(PartitionMismatchException.class, () -> new CountsOverTime(engine).run(request),
                            context);
                    assertThrows(PartitionMismatchException.class, () -> engine.count(q), context);
                    continue;
                }
                Map<List<String>, long[]> expected = model(all, request);
                CountsOverTime.Counts counts = new CountsOverTime(engine).run(request);
                Map<List<String>, long[]> actual = new HashMap<>();
                for (CountsOverTime.Series s : counts.series()) {
                    assertTrue(!s.other(), context + ": no group is left to 'other'");
                    actual.put(s.group(), s.counts());
                }
                assertEquals(expected.keySet(), actual.keySet(), context);
                for (Map.Entry<List<String>, long[]> e : expected.entrySet()) {
                    assertArrayEquals(e.getValue(), actual.get(e.getKey()), context + " " + e.getKey());
                }
                long total = expected.values().stream().flatMapToLong(java.util.Arrays::stream).sum();
                assertEquals(total, counts.total(), context);
                assertEquals(total, engine.count(query).rows(), context);
            }
        }
    }

    @Test
    void a_compaction_outputs_groups_are_counted_without_their_source_times() throws Exception {
        long seed = TestSeed.announce(StatisticsCheckPropertyTest.class);
        Random random = new Random(seed);
        PartitionKey p = PartitionKey.of(TENANT, HOUR_NANOS);
        List<LogRecord> rows = rows(random, 40_000);
        TestStore trusted = new TestStore(dir.resolve("compaction-output"), seed);
        trusted.commit(p, 1, trusted.compacted(p, rows, WriterOptions.compacted(1 << 20).withRowGroupRows(10_000)),
                List.of(), rows.size());
        TestStore unindexed = new TestStore(dir.resolve("no-token-index"), seed);
        unindexed.commit(p, 1, unindexed.compacted(p, rows, WriterOptions.compacted(1 << 20).withRowGroupRows(10_000)
                .withTokenIndex(false)), List.of(), rows.size());
        Instant to = HOUR.plus(Duration.ofHours(1));
        CountsRequest request = new CountsRequest(Query.tenant(TENANT).window(HOUR, to).severityMin(17), HOUR, to,
                Duration.ofMinutes(1), List.of(GroupField.parse("service")), 100);
        CountsOverTime.Counts fromStatistics = new CountsOverTime(trusted.engine(1)).run(request);
        CountsOverTime.Counts rowByRow = new CountsOverTime(unindexed.engine(1)).run(request);
        assertEquals(rowByRow.total(), fromStatistics.total());
        assertEquals(model(rows, request).values().stream().flatMapToLong(java.util.Arrays::stream).sum(),
                fromStatistics.total());
        assertTrue(fromStatistics.stats().bytesRead() < rowByRow.stats().bytesRead(),
                "the compaction output's groups are read without time_unix_nano and observed_time_unix_nano: "
                        + fromStatistics.stats().bytesRead() + " bytes, the unindexed file's "
                        + rowByRow.stats().bytesRead());
    }

    /** Counts per group and bucket of the rows a request counts, decided on each whole row. */
    private static Map<List<String>, long[]> model(List<LogRecord> rows, CountsRequest r) {
        long step = r.step().toNanos();
        long from = nanos(r.from());
        long to = nanos(r.to());
        long origin = Math.floorDiv(from, step) * step;
        int buckets = (int) (Math.floorDiv(to - 1 - origin, step) + 1);
        Map<List<String>, long[]> counts = new HashMap<>();
        for (LogRecord row : rows) {
            long t = RowTime.of(row);
            if (t < from || t >= to || row.severityNumber() < r.query().severityMin().orElse(0)) {
                continue;
            }
            List<String> group = r.groupBy().stream().map(f -> f.valueOf(row)).toList();
            counts.computeIfAbsent(group, g -> new long[buckets])[(int) Math.floorDiv(t - origin, step)]++;
        }
        return counts;
    }

    /** Rows of the hour: a random service and severity; about one in ten without a time (its observed time rules). */
    private static List<LogRecord> rows(Random random, int n) {
        List<LogRecord> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long t = HOUR_NANOS + (long) (random.nextDouble() * (NANOS_PER_HOUR - 2_000_000));
            boolean noTime = random.nextInt(10) == 0;
            rows.add(LogRecord.builder(TENANT).serviceName(SERVICES.get(random.nextInt(SERVICES.size())))
                    .severityNumber(SEVERITIES[random.nextInt(SEVERITIES.length)]).timeUnixNano(noTime ? 0 : t)
                    .observedTimeUnixNano(t + random.nextInt(1_000_000)).build());
        }
        return rows;
    }

    /** {@code r} with another time, a stored effective time its source columns contradict, and a severity. */
    private static LogRecord withTimes(LogRecord r, long time, long storedEffective, int severity) {
        return new LogRecord(r.tenantId(), r.templateId(), r.templateVersion(), time, r.observedTimeUnixNano(),
                storedEffective, severity, r.severityText(), r.scopeName(), r.scopeVersion(), r.attributes(),
                r.droppedAttributesCount(), r.resourceAttributes(), r.traceId(), r.spanId(), r.flags(), r.eventName(),
                r.bodyKind(), r.body(), r.params(), r.separators(), r.confidence(), r.lossyFlag(),
                r.scopeAttributes(), r.resourceSchemaUrl(), r.scopeSchemaUrl(), r.serviceName(), r.extras());
    }

    private static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
