package dev.ourios.query.aggregate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.SortKey;
import dev.ourios.core.Uuid7;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.read.FooterCache;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.search.SearchQuery;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.testkit.TestSeed;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counting row groups from their statistics gives the counts decoding every row gives: random searches (fixed
 * filters the statistics can prove, and others), windows, steps (whole hours, so every row group lies in one bucket,
 * and steps that cut row groups) and group-by fields over generated files sorted as compaction sorts them, with
 * several row groups each. And the statistics do decide some of them: the whole-hour count reads fewer bytes.
 */
class CountsFromStatisticsTest {
    private static final String TENANT = "default";
    private static final Instant HOUR = Instant.parse("2026-11-01T10:00:00Z");
    private static final List<String> SEARCHES = List.of("", "severity:>=error", "severity:>=warn", "service:cart",
            "service:cart severity:>=warn", "attributes.app.user.id:*", "NOT service:frontend");
    private static final List<String> FIELDS = List.of("service", "severity", "scope", "resource.service.name");

    @TempDir
    Path dir;

    @Test
    void counts_from_statistics_equal_counts_from_rows() throws Exception {
        long seed = TestSeed.announce(CountsFromStatisticsTest.class);
        Random random = new Random(seed);
        LocalObjectStore store = new LocalObjectStore(dir);
        Uuid7 uuids = new Uuid7(Clock.fixed(HOUR, ZoneOffset.UTC), new Random(seed));
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of(TENANT), HOUR, 2, 2, 900, seed).withServices(5));
        for (int h = 0; h < 2; h++) {
            PartitionKey p = gen.partition(TENANT, h);
            for (int f = 0; f < 2; f++) {
                List<LogRecord> rows = new ArrayList<>(gen.file(TENANT, h, f));
                rows.sort(SortKey.RECORD_ORDER); // as compaction orders them: runs of one service, by time
                // row groups shorter than the larger services' runs, so some hold one service and the statistics decide
                WriterOptions opts = WriterOptions.compacted(1 << 20).withRowGroupRows(40 + random.nextInt(100));
                try (LogFileWriter w = new LogFileWriter(store.create(p.dataPrefix() + uuids.next() + ".parquet"), opts)) {
                    for (LogRecord r : rows) {
                        w.write(r);
                    }
                    w.commit();
                }
            }
        }
        // Each way its own engine, so each reads the footers, indexes and dictionaries it needs (an engine keeps
        // them: with one engine the second way would find the first way's kept and fetch less for that alone).
        QueryEngine engine = new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                MeterProvider.noop(), new FooterCache(FooterCache.DEFAULT_MAX_BYTES));
        QueryEngine rowsEngine = new QueryEngine(store, new TableLayout(store),
                new TableReader(store, new ManifestCodec()), MeterProvider.noop(),
                new FooterCache(FooterCache.DEFAULT_MAX_BYTES));
        CountsOverTime fast = new CountsOverTime(engine, true);
        CountsOverTime slow = new CountsOverTime(rowsEngine, false);

        CountsRequest hourly = new CountsRequest(Query.tenant(TENANT).window(HOUR, HOUR.plusSeconds(7200)), HOUR,
                HOUR.plusSeconds(7200), Duration.ofHours(1), List.of(GroupField.parse("service")), 100);
        // Both measured below with their footers, indexes and dictionaries kept: bytes read are then data pages alone.
        fast.run(hourly);
        slow.run(hourly);
        CountsOverTime.Counts byStatistics = fast.run(hourly);
        CountsOverTime.Counts byRows = slow.run(hourly);
        assertSame(byRows, byStatistics, "seed " + seed + " hourly by service");
        assertTrue(byRows.total() > 0, "seed " + seed + ": no rows");
        // Never more: reads are coalesced into ranges, so on files this small both ways may fetch the same ranges.
        assertTrue(byStatistics.stats().bytesRead() <= byRows.stats().bytesRead(), "seed " + seed + ": "
                + byStatistics.stats() + " vs " + byRows.stats());

        for (int i = 0; i < 30; i++) {
            String text = SEARCHES.get(random.nextInt(SEARCHES.size()));
            int fromSeconds = random.nextBoolean() ? 0 : random.nextInt(3600);
            Instant from = HOUR.plusSeconds(fromSeconds);
            Instant to = random.nextBoolean() ? HOUR.plusSeconds(7200)
                    : from.plusSeconds(1 + random.nextInt(7200 - fromSeconds));
            Query q = Query.tenant(TENANT).window(from, to);
            if (!text.isEmpty()) {
                q = SearchQuery.parse(text).applyTo(q);
            }
            List<GroupField> by = new ArrayList<>();
            for (int f = random.nextInt(3); f > 0; f--) {
                by.add(GroupField.parse(FIELDS.get(random.nextInt(FIELDS.size()))));
            }
            Duration step = switch (random.nextInt(4)) {
                case 0 -> Duration.ofHours(1 + random.nextInt(2));
                case 1 -> Duration.ofMinutes(15);
                case 2 -> Duration.ofSeconds(1 + random.nextInt(120));
                default -> Steps.choose(Duration.between(from, to), Steps.TARGET_BUCKETS);
            };
            CountsRequest r = new CountsRequest(q, from, to, step, by, 1 + random.nextInt(8));
            assertSame(slow.run(r), fast.run(r), "seed " + seed + " q '" + text + "' [" + from + ", " + to + ") by "
                    + by + " step " + step);
        }
    }

    private static void assertSame(CountsOverTime.Counts expected, CountsOverTime.Counts got, String what) {
        assertEquals(expected.total(), got.total(), what);
        assertEquals(expected.stats().rows(), got.stats().rows(), what);
        assertEquals(expected.origin(), got.origin(), what);
        assertEquals(expected.buckets(), got.buckets(), what);
        assertEquals(expected.groupsCapped(), got.groupsCapped(), what);
        assertEquals(expected.series().size(), got.series().size(), what);
        for (int s = 0; s < expected.series().size(); s++) {
            CountsOverTime.Series e = expected.series().get(s);
            CountsOverTime.Series g = got.series().get(s);
            assertEquals(e.group(), g.group(), what + " series " + s);
            assertEquals(e.other(), g.other(), what + " series " + s);
            assertArrayEquals(e.counts(), g.counts(), what + " series " + e.group());
        }
    }
}
