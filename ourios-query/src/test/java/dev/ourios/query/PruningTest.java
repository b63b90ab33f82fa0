package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.RowTime;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.write.WriterOptions;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pruning is real: fewer row groups are read than the files hold, and the rows are still exactly right. */
class PruningTest {
    static final Instant START = Instant.parse("2026-05-01T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void oneServiceOneMinuteOverCompactedFileScansFewerGroups() throws Exception {
        TestStore ts = new TestStore(dir, 1);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), START, 1, 4, 2000, 5));
        PartitionKey p = gen.partition("t", 0);
        List<LogRecord> rows = new ArrayList<>();
        List<String> inputs = new ArrayList<>();
        for (int f = 0; f < 4; f++) {
            rows.addAll(gen.file("t", 0, f));
        }
        String out = ts.compacted(p, rows, WriterOptions.compacted(1 << 20).withRowGroupRows(500));
        ts.commit(p, 1, out, inputs, rows.size());

        InMemoryMetricReader metrics = InMemoryMetricReader.create();
        try (SdkMeterProvider provider = SdkMeterProvider.builder().registerMetricReader(metrics).build()) {
            QueryEngine engine = new QueryEngine(ts.store, ts.layout, ts.tables, provider);
            String service = gen.services().get(0).name();
            Instant from = START.plus(Duration.ofMinutes(23));
            Query q = Query.tenant("t").window(from, from.plus(Duration.ofMinutes(1))).service(service)
                    .order(Query.Order.OLDEST_FIRST);
            QueryResult r = engine.collect(q);
            RowMatcher m = new RowMatcher(q);
            List<LogRecord> expected = rows.stream().filter(m::matches)
                    .sorted(Comparator.comparingLong(RowTime::of)).toList();
            assertTrue(expected.size() > 0);
            assertEquals(expected, r.rows());
            QueryStats s = r.stats();
            System.out.println("one service, one minute over " + rows.size() + " sorted rows: " + s.toJson());
            assertEquals(16, s.rowGroupsTotal());
            assertTrue(s.rowGroupsScanned() < s.rowGroupsTotal(), s.toString());
            // The minute lies in one or two groups of the service; the groups where the service starts or ends also
            // span most of the hour (they hold the neighbouring service too) and cannot be excluded by min/max.
            assertTrue(s.rowGroupsScanned() <= 4, s.toString());
            assertEquals(s.rowGroupsTotal() - s.rowGroupsScanned(), s.rowGroupsPruned());
            long size = ts.store.stat(out).orElseThrow().size();
            System.out.println("bytes read " + s.bytesRead() + " of a " + size + "-byte file");
            assertTrue(s.bytesRead() < size, s.bytesRead() + " of " + size);

            // The same counts reach the OpenTelemetry instruments.
            provider.forceFlush();
            var collected = metrics.collectAllMetrics();
            assertEquals(s.rowGroupsScanned(), rowGroups(collected, "scanned"));
            assertEquals(s.rowGroupsPruned(), rowGroups(collected, "pruned"));
            assertTrue(collected.stream().anyMatch(d -> d.getName().equals("ourios.query.duration")
                    && d.getUnit().equals("s") && d.getHistogramData().getPoints().iterator().next().getCount() == 1));
        }
    }

    private static long rowGroups(java.util.Collection<MetricData> data, String state) {
        return data.stream().filter(d -> d.getName().equals("ourios.query.row_groups"))
                .peek(d -> assertEquals("{row_group}", d.getUnit()))
                .flatMap(d -> d.getLongSumData().getPoints().stream())
                .filter(pt -> pt.getAttributes().equals(Attributes.of(QueryMetrics.STATE, state)))
                .mapToLong(pt -> pt.getValue()).sum();
    }

    @Test
    void traceIdProbePrunesByBloomFilter() throws Exception {
        long seed = System.nanoTime();
        System.out.println("PruningTest.traceIdProbePrunesByBloomFilter seed=" + seed);
        TestStore ts = new TestStore(dir, seed);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), START, 1, 1, 8000, seed));
        PartitionKey p = gen.partition("t", 0);
        List<LogRecord> rows = gen.file("t", 0, 0); // ingest order: every group spans the whole id range
        ts.ingest(p, rows, WriterOptions.ingest().withRowGroupRows(1000));
        Random rnd = new Random(seed);
        List<LogRecord> traced = rows.stream().filter(x -> x.traceId() != null).toList();
        int bloomPrunedMost = 0;
        for (int i = 0; i < 5; i++) {
            LogRecord probe = traced.get(rnd.nextInt(traced.size()));
            QueryResult r = ts.engine().collect(Query.tenant("t").traceId(probe.traceId()));
            long expected = rows.stream().filter(x -> java.util.Arrays.equals(x.traceId(), probe.traceId())).count();
            assertEquals(expected, r.rows().size(), "seed " + seed);
            QueryStats s = r.stats();
            assertEquals(8, s.rowGroupsTotal());
            assertTrue(s.rowGroupsScanned() >= 1 && s.rowGroupsScanned() < 8, "seed " + seed + " " + s);
            // A false positive (fpp ~1 %) may keep an extra group now and then; nearly every probe reads one.
            bloomPrunedMost += s.rowGroupsScanned() <= 2 ? 1 : 0;
        }
        assertTrue(bloomPrunedMost >= 4, "seed " + seed);
        // An id no row has: every group is dropped by its bloom filter and counted as pruned.
        QueryStats none = ts.engine().collect(Query.tenant("t").traceId(new byte[16])).stats();
        assertEquals(0, none.rows());
        assertTrue(none.rowGroupsPruned() >= 7, none.toString());
    }

    @Test
    void hourPartitionsOutsideTheWindowAreNeverListed() throws Exception {
        TestStore ts = new TestStore(dir, 3);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), START, 5, 1, 50, 9));
        for (int h = 0; h < 5; h++) {
            ts.ingest(gen.partition("t", h), gen.file("t", h, 0));
        }
        Instant from = START.plus(Duration.ofMinutes(90));
        QueryResult r = ts.engine().collect(Query.tenant("t").window(from, from.plus(Duration.ofMinutes(60))));
        assertEquals(2, r.stats().partitions()); // hours 1 and 2 overlap [13:30, 14:30)
        assertEquals(2, r.stats().files());
        // Newest first with a limit stops after the newest partition that fills it.
        QueryResult newest = ts.engine().collect(Query.tenant("t").limit(10));
        assertEquals(1, newest.stats().partitions());
        assertEquals(gen.partition("t", 4), newest.rows().get(0).partitionKey());
        QueryResult oldest = ts.engine().collect(Query.tenant("t").limit(60).order(Query.Order.OLDEST_FIRST));
        assertEquals(2, oldest.stats().partitions());
        assertEquals(60, oldest.rows().size());
        assertEquals(gen.partition("t", 0), oldest.rows().get(0).partitionKey());
    }
}
