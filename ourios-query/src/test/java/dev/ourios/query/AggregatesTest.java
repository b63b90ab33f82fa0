package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.RowSelection;
import dev.ourios.core.RowTime;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.query.aggregate.CountsOverTime;
import dev.ourios.query.aggregate.CountsRequest;
import dev.ourios.query.aggregate.FieldSurvey;
import dev.ourios.query.aggregate.GroupField;
import dev.ourios.query.aggregate.Steps;
import dev.ourios.query.search.SearchQuery;
import dev.ourios.testkit.TestSeed;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counts over time and field surveys against a model computed here from the rows and the query's own predicate:
 * random searches (exact ones, counted on columns alone, and ones with row filters, on whole rows), windows, steps and
 * group-by fields over generated rows with typed attributes in ingest and compacted files. And a scan whose thread
 * is interrupted stops within a few rows.
 */
class AggregatesTest {
    private static final String TENANT = "default";
    private static final Instant HOUR = Instant.parse("2026-11-01T10:00:00Z");
    private static final List<String> SEARCHES = List.of("", "service:cart", "severity:>=warn", "severity:error",
            "attributes.app.product.quantity:>=3", "NOT service:frontend", "attributes.app.user.id:*",
            "service:cart OR severity:warn", "resource.service.name:ad", "scope:* -severity:info");
    private static final List<String> FIELDS = List.of("service", "severity", "scope",
            "attributes.app.recommendation.cache_enabled", "resource.service.name", "attributes.app.product.quantity");

    @TempDir
    Path dir;

    private List<LogRecord> store(TestStore store, long seed) throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of(TENANT), HOUR, 2, 3, 700, seed).withServices(6));
        List<LogRecord> all = new ArrayList<>();
        for (int h = 0; h < 2; h++) {
            PartitionKey p = gen.partition(TENANT, h);
            List<LogRecord> hour = new ArrayList<>();
            for (int f = 0; f < 3; f++) {
                List<LogRecord> rows = gen.file(TENANT, h, f);
                hour.addAll(rows);
                if (h == 0) {
                    store.ingest(p, rows);
                }
            }
            if (h == 1) {
                String out = store.compacted(p, hour, WriterOptions.ingest());
                store.commit(p, 1, out, List.of(), hour.size());
            }
            all.addAll(hour);
        }
        return all;
    }

    @Test
    void counts_and_surveys_agree_with_the_model() throws Exception {
        long seed = TestSeed.announce(AggregatesTest.class);
        Random random = new Random(seed);
        TestStore store = new TestStore(dir, seed);
        List<LogRecord> rows = store(store, seed);
        QueryEngine engine = store.engine();
        for (int i = 0; i < 25; i++) {
            String text = SEARCHES.get(random.nextInt(SEARCHES.size()));
            Instant from = HOUR.plusSeconds(random.nextInt(3600));
            Instant to = from.plusSeconds(1 + random.nextInt(7200 - (int) Duration.between(HOUR, from).toSeconds()));
            Query q = Query.tenant(TENANT).window(from, to);
            if (!text.isEmpty()) {
                q = SearchQuery.parse(text).applyTo(q);
            }
            List<GroupField> by = new ArrayList<>();
            int fields = random.nextInt(3);
            for (int f = 0; f < fields; f++) {
                by.add(GroupField.parse(FIELDS.get(random.nextInt(FIELDS.size()))));
            }
            Duration step = random.nextBoolean() ? Steps.choose(Duration.between(from, to), Steps.TARGET_BUCKETS)
                    : Duration.ofSeconds(1 + random.nextInt(900));
            int maxGroups = 1 + random.nextInt(5);
            String what = "seed " + seed + " q '" + text + "' [" + from + ", " + to + ") by " + by + " step " + step;
            CountsRequest request = new CountsRequest(q, from, to, step, by, maxGroups);
            CountsOverTime.Counts counts = new CountsOverTime(engine).run(request);

            // the model: the query's own predicate on every row, bucketed and grouped here
            long stepNanos = step.toNanos();
            long origin = Math.floorDiv(RowSelection.nanos(from), stepNanos) * stepNanos;
            Map<List<String>, long[]> model = new HashMap<>();
            long total = 0;
            var predicate = q.rowPredicate();
            for (LogRecord r : rows) {
                if (!predicate.test(r)) {
                    continue;
                }
                total++;
                List<String> key = new ArrayList<>();
                for (GroupField f : by) {
                    key.add(f.valueOf(r));
                }
                int bucket = (int) Math.floorDiv(RowTime.of(r) - origin, stepNanos);
                model.computeIfAbsent(key, k -> new long[counts.buckets()])[bucket]++;
            }
            assertEquals(total, counts.total(), what);
            assertEquals(total, counts.stats().rows(), what);
            long seriesSum = 0;
            for (CountsOverTime.Series s : counts.series()) {
                seriesSum += s.total();
                if (!s.other()) {
                    assertArrayEquals(model.get(s.group()), s.counts(), what + " group " + s.group());
                }
            }
            assertEquals(total, seriesSum, what);
            int named = (int) counts.series().stream().filter(s -> !s.other()).count();
            assertEquals(Math.min(maxGroups, model.size()), named, what);
            assertEquals(model.size() > maxGroups, counts.series().stream().anyMatch(CountsOverTime.Series::other),
                    what);
            long smallestNamed = counts.series().stream().filter(s -> !s.other())
                    .mapToLong(CountsOverTime.Series::total).min().orElse(Long.MAX_VALUE);
            for (long[] c : model.values()) {
                long t = Arrays.stream(c).sum();
                assertTrue(named == model.size() || t <= smallestNamed || counts.series().stream()
                        .anyMatch(s -> !s.other() && s.total() == t), what + ": a larger group left in other");
            }

            GroupField field = GroupField.parse(FIELDS.get(random.nextInt(FIELDS.size())));
            FieldSurvey.Survey values = new FieldSurvey(engine).values(q, field, 1000, 1_000_000);
            Map<String, Long> valueModel = new HashMap<>();
            for (LogRecord r : rows) {
                String v = field.valueOf(r);
                if (v != null && predicate.test(r)) {
                    valueModel.merge(v, 1L, Long::sum);
                }
            }
            Map<String, Long> got = new HashMap<>();
            values.counts().forEach(c -> got.put(c.name(), c.rows()));
            assertEquals(valueModel, got, what + " values of " + field.name());
            assertFalse(values.partial(), what);
        }
    }

    @Test
    void a_survey_stops_at_its_row_bound_and_says_it_is_partial() throws Exception {
        TestStore store = new TestStore(dir, 5);
        List<LogRecord> rows = store(store, 5);
        FieldSurvey.Survey keys = new FieldSurvey(store.engine()).keys(Query.tenant(TENANT), 50, 100);
        assertTrue(keys.partial());
        assertTrue(keys.rowsScanned() < rows.size(), keys.rowsScanned() + " of " + rows.size());
        FieldSurvey.Survey whole = new FieldSurvey(store.engine()).keys(Query.tenant(TENANT), 50, 1_000_000);
        assertFalse(whole.partial());
        assertEquals(rows.size(), whole.rowsScanned());
    }

    @Test
    void an_interrupted_scan_stops_within_a_few_rows() throws Exception {
        TestStore store = new TestStore(dir, 9);
        List<LogRecord> rows = store(store, 9);
        SpinningCondition slow = new SpinningCondition(false);
        Query q = Query.tenant(TENANT).condition(slow);
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread scan = new Thread(() -> {
            try {
                store.engine(1).count(q);
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        scan.start();
        assertTrue(slow.started.await(30, TimeUnit.SECONDS));
        scan.interrupt();
        scan.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(scan.isAlive());
        assertTrue(outcome.get() instanceof InterruptedIOException, String.valueOf(outcome.get()));
        assertTrue(slow.tested.get() <= 300, slow.tested.get() + " rows tested of " + rows.size());
    }

    @Test
    void steps_are_round_and_near_a_hundred_buckets() {
        assertEquals(Duration.ofMinutes(1), Steps.choose(Duration.ofHours(2), 100));
        assertEquals(Duration.ofMinutes(10), Steps.choose(Duration.ofDays(1), 100));
        assertEquals(Duration.ofHours(1), Steps.choose(Duration.ofDays(7), 100));
        assertEquals(Duration.ofSeconds(1), Steps.choose(Duration.ofSeconds(20), 100));
        assertThrows(IllegalArgumentException.class, () -> new CountsRequest(Query.tenant(TENANT), HOUR,
                HOUR.plusSeconds(86_400), Duration.ofMillis(1), List.of(), 1));
        assertThrows(IllegalArgumentException.class, () -> GroupField.parse("attributes."));
        assertThrows(IllegalArgumentException.class, () -> GroupField.parse("body"));
        assertEquals("error", GroupField.severityRange(17));
        assertEquals(null, GroupField.severityRange(0));
    }
}
