package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.BodyKind;
import dev.ourios.core.LineText;
import dev.ourios.core.LogRecord;
import dev.ourios.core.RowCondition;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.query.search.SearchQuery;
import dev.ourios.query.search.Tokenizer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Searches over a compacted file with the token index (docs/spec/query.md, "The token index"): a rare token or
 * attribute value skips the row groups that cannot hold it, and for random terms drawn from the data (and absent
 * ones) the rows with the index equal the rows without it. The seed is printed; {@code -Dourios.index.seed=S}
 * replays a run.
 */
class TokenIndexQueryTest {
    private static final Instant START = Instant.parse("2026-11-01T10:00:00Z");

    @TempDir
    Path dir;

    /** The same filter with nothing for the index: the search decides rows, every row group is read. */
    private record Unindexed(RowCondition inner) implements RowCondition {
        @Override
        public boolean test(LogRecord row) {
            return inner.test(row);
        }

        @Override
        public String text() {
            return inner.text();
        }
    }

    private static Query unindexed(Query q) {
        return q.condition().isPresent() ? q.condition(new Unindexed(q.condition().get())) : q;
    }

    private static List<String> identities(QueryResult r) {
        List<String> out = new ArrayList<>();
        for (LogRecord rec : r.rows()) {
            byte[] line = LineText.of(rec);
            out.add(rec.timeUnixNano() + "|" + rec.serviceName() + "|" + (line == null ? null : Arrays.toString(line))
                    + "|" + rec.attributes());
        }
        return out;
    }

    @Test
    void rare_terms_skip_row_groups_and_random_terms_find_the_same_rows_with_and_without_the_index()
            throws Exception {
        long seed = Long.getLong("ourios.index.seed", System.nanoTime());
        System.out.println("TokenIndexQueryTest: seed " + seed + " (replay with -Dourios.index.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        TestStore ts = new TestStore(dir, seed);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), START, 1, 4, 2000, seed).withServices(5));
        PartitionKey p = gen.partition("t", 0);
        List<LogRecord> rows = new ArrayList<>();
        for (int f = 0; f < 4; f++) {
            rows.addAll(gen.file("t", 0, f));
        }
        int planted = random.nextInt(rows.size());
        LogRecord orig = rows.get(planted);
        rows.set(planted, LogRecord.builder("t").timeUnixNano(orig.timeUnixNano())
                .observedTimeUnixNano(orig.observedTimeUnixNano()).serviceName(orig.serviceName())
                .resourceAttributes(orig.resourceAttributes()).severityNumber(17).bodyKind(BodyKind.STRING)
                .body("payment Zqxjvk declined for ord-77".getBytes(StandardCharsets.UTF_8))
                .attributes(AttributesJson.encode(List.of(KeyValue.of("order.id", "ord-77-rare"),
                        new KeyValue("tags", new AnyValue.ArrayValue(List.of(AnyValue.of("vip"), AnyValue.of(3L)))))))
                .build());
        String out = ts.compacted(p, rows, WriterOptions.compacted(1 << 20).withRowGroupRows(500));
        ts.commit(p, 1, out, List.of(), rows.size());
        QueryEngine engine = ts.engine();
        Query base = Query.tenant("t").order(Query.Order.OLDEST_FIRST);

        for (String text : List.of("zqxjvk", "ZQXJVK declined", "\"payment zqxjvk\"", "attributes.order.id:ord-77-rare",
                "attributes.order.id:\"ord-77-rare\"", "attributes.tags:vip zqxjvk",
                "zqxjvk OR attributes.order.id:ord-77-rare", "(zqxjvk OR nosuchtokenanywhere) severity:>=17")) {
            Query q = SearchQuery.parse(text).applyTo(base);
            QueryResult with = engine.collect(q);
            QueryResult without = engine.collect(unindexed(q));
            String where = "seed " + seed + ", " + text + ": " + with.stats().toJson();
            assertEquals(1, with.rows().size(), where);
            assertEquals(identities(without), identities(with), where);
            assertEquals(16, with.stats().rowGroupsTotal(), where);
            // 15 groups cannot hold the row; a filter's false positive (about 1%) may keep one of them.
            assertTrue(with.stats().rowGroupsIndexSkipped() >= 13, where);
            assertEquals(0, without.stats().rowGroupsIndexSkipped(), where);
            assertEquals(1, engine.count(q).rows(), where);
        }
        for (String text : List.of("-zqxjvk", "NOT attributes.order.id:ord-77-rare", "zqxj*",
                "attributes.tags:3", "body:/zqxjvk/")) {
            Query q = SearchQuery.parse(text).applyTo(base);
            assertEquals(0, engine.collect(q).stats().rowGroupsIndexSkipped(), text + " cannot use the index");
        }

        List<String> vocabulary = vocabulary(rows, random);
        for (int n = 0; n < 60; n++) {
            String text = term(random, vocabulary);
            Query q = SearchQuery.parse(text).applyTo(base);
            QueryResult with = engine.collect(q);
            QueryResult without = engine.collect(unindexed(q));
            String where = "seed " + seed + ", query " + n + ": " + text;
            assertEquals(identities(without), identities(with), where);
            assertEquals(without.stats().rows(), engine.count(q).rows(), where);
        }
    }

    /** Words, phrases and attribute terms of random rows, and words no row holds. */
    private static List<String> vocabulary(List<LogRecord> rows, SplittableRandom random) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            LogRecord r = rows.get(random.nextInt(rows.size()));
            byte[] line = LineText.of(r);
            if (line != null) {
                List<String> tokens = Tokenizer.tokens(new String(line, StandardCharsets.UTF_8));
                if (!tokens.isEmpty()) {
                    int at = random.nextInt(tokens.size());
                    out.add(tokens.get(at));
                    if (at + 1 < tokens.size()) {
                        out.add("\"" + tokens.get(at) + " " + tokens.get(at + 1) + "\"");
                    }
                }
            }
            for (KeyValue kv : AttributesJson.decode(r.attributes())) {
                if (kv.value() instanceof AnyValue.StringValue s && !s.value().contains("\"")
                        && !s.value().contains("\\")) {
                    out.add("attributes." + kv.key() + ":\"" + s.value() + "\"");
                }
            }
        }
        out.add("absentword" + random.nextInt(1000));
        out.add("attributes.http.route:\"/nowhere\"");
        return out;
    }

    private static String term(SplittableRandom r, List<String> vocabulary) {
        String a = vocabulary.get(r.nextInt(vocabulary.size()));
        String b = vocabulary.get(r.nextInt(vocabulary.size()));
        switch (r.nextInt(5)) {
            case 0:
                return a;
            case 1:
                return a + " " + b;
            case 2:
                return a + " OR " + b;
            case 3:
                return "-" + a + " " + b;
            default:
                return "(" + a + " OR " + b + ") " + vocabulary.get(r.nextInt(vocabulary.size()));
        }
    }
}
