package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ourios.core.BodyKind;
import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.query.search.SearchQuery;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded property test of the search language (docs/spec/query.md): random expressions over random rows with typed
 * attributes, each rendered as query text (random parentheses, AND or juxtaposition, NOT or '-') and paired with a
 * model of what it means, written here independently of the library (line tokens by java.util.regex word
 * boundaries, typed values compared as BigDecimals, regexes run by java.util.regex). The compiled search must agree
 * with the model on every row, by itself, through the {@link Query} it is applied to, and end to end through the
 * engine's query and count over a real store holding the rows, and over a second store holding them as one
 * compacted file of small row groups with the token index (docs/spec/storage.md, "Token index"): the index may
 * skip row groups, never a match.
 *
 * <p>The seed is printed; {@code -Dourios.search.seed=S} replays a run.
 */
class SearchPropertyTest {
    private static final String TENANT = "acme";
    private static final long BASE = 1_793_527_200_000_000_000L; // 2026-11-01T10:00:00Z
    private static final String TOKEN = "[\\p{L}\\p{M}\\p{Nd}_]";
    private static final List<String> WORDS = List.of("refused", "Refused", "TIMEOUT", "timeout", "connection",
            "café", "CAFÉ", "order_id", "42", "4242", "u", "x9", "日本", "retry");
    private static final List<String> SEPARATORS = List.of(" ", ".", "-", ": ", " / ", "=", "\t", ", ");
    private static final List<String> SERVICES = List.of("cart", "checkout", "Cart", "ad-service");
    private static final List<String> KEYS = List.of("n", "s", "http.status_code", "flag", "tags");
    private static final List<String> TRACES = List.of("0af7651916cd43dd8448eb211c80319c",
            "0af7651916cd43dd8448eb211c8031ff", "ffffffffffffffffffffffffffffffff");
    private static final List<String> REGEXES = List.of("ref.sed", "^[A-Z]", "time(out)?$", "[0-9]{2,}", "é",
            "^$|x9");
    private static final List<String> LITERALS = List.of("500", "500.0", "5e2", "u-42", "abc", "true", "false", "-1",
            "0.5", "12.5", "0");
    private static final String[] NAMES = {"trace", "debug", "info", "warn", "error", "fatal"};

    @TempDir
    Path dir;

    /** A row as the model sees it. */
    record Row(int id, String service, int severity, String scope, String traceHex, long templateId, String line,
            boolean templated, List<Map.Entry<String, Object>> attributes) {
    }

    /** A generated expression: its query text and the model's meaning. */
    private record Gen(String text, int precedence, Predicate<Row> model) {
    }

    @Test
    void compiled_searches_agree_with_the_model_and_the_engine() throws Exception {
        long seed = Long.getLong("ourios.search.seed", System.nanoTime());
        System.out.println("SearchPropertyTest: seed " + seed + " (replay with -Dourios.search.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        List<Row> rows = new ArrayList<>();
        List<LogRecord> records = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Row r = row(i, random);
            rows.add(r);
            records.add(record(r));
        }
        TestStore store = new TestStore(dir, seed);
        PartitionKey p = PartitionKey.of(TENANT, BASE);
        store.ingest(p, records.subList(0, 150));
        store.ingest(p, records.subList(150, 300));
        QueryEngine engine = store.engine();
        TestStore indexedStore = new TestStore(dir.resolve("indexed"), seed);
        String indexedFile = indexedStore.compacted(p, records, WriterOptions.compacted(1 << 20)
                .withRowGroupRows(1 + random.nextInt(40)));
        indexedStore.commit(p, 1, indexedFile, List.of(), records.size());
        QueryEngine indexed = indexedStore.engine();

        for (int n = 0; n < 400; n++) {
            Gen g = expression(random, 3);
            String where = "seed " + seed + ", query " + n + ": " + g.text();
            SearchQuery search = SearchQuery.parse(g.text());
            Query query = search.applyTo(Query.tenant(TENANT).order(Query.Order.OLDEST_FIRST));
            Predicate<LogRecord> predicate = query.rowPredicate();
            TreeSet<Integer> expected = new TreeSet<>();
            TreeSet<Integer> bySearch = new TreeSet<>();
            TreeSet<Integer> byQuery = new TreeSet<>();
            for (int i = 0; i < rows.size(); i++) {
                if (g.model().test(rows.get(i))) {
                    expected.add(i);
                }
                if (search.test(records.get(i))) {
                    bySearch.add(i);
                }
                if (predicate.test(records.get(i))) {
                    byQuery.add(i);
                }
            }
            assertEquals(expected, bySearch, where + " (" + search.expression() + ")");
            assertEquals(expected, byQuery, where + " through " + query);
            if (n % 4 == 0) {
                TreeSet<Integer> byEngine = new TreeSet<>();
                for (LogRecord r : engine.collect(query).rows()) {
                    byEngine.add((int) (r.timeUnixNano() - BASE));
                }
                assertEquals(expected, byEngine, where + " by the engine");
                assertEquals(expected.size(), engine.count(query).rows(), where + " counted by the engine");
                TreeSet<Integer> byIndexed = new TreeSet<>();
                for (LogRecord r : indexed.collect(query).rows()) {
                    byIndexed.add((int) (r.timeUnixNano() - BASE));
                }
                assertEquals(expected, byIndexed, where + " over the indexed file");
                assertEquals(expected.size(), indexed.count(query).rows(), where + " counted over the indexed file");
            }
        }
    }

    // ------------------------------------------------------------------ rows

    private static Row row(int id, SplittableRandom r) {
        String service = r.nextInt(8) == 0 ? null : pick(r, SERVICES);
        int severity = r.nextInt(25);
        String scope = r.nextBoolean() ? null : pick(r, List.of("cart.server", "checkout"));
        String trace = r.nextInt(3) == 0 ? null : pick(r, TRACES);
        long template = pick(r, List.of(0L, 42L, -1L));
        String line = null;
        boolean templated = false;
        if (r.nextInt(10) != 0) {
            StringBuilder b = new StringBuilder();
            int pieces = 1 + r.nextInt(5);
            for (int i = 0; i < pieces; i++) {
                if (i > 0 || r.nextInt(4) == 0) {
                    b.append(pick(r, SEPARATORS));
                }
                b.append(pick(r, WORDS));
            }
            line = b.toString();
            templated = r.nextInt(3) == 0;
        }
        List<Map.Entry<String, Object>> attributes = new ArrayList<>();
        for (int i = r.nextInt(5); i > 0; i--) {
            attributes.add(Map.entry(pick(r, KEYS), r.nextInt(5) == 0 ? List.of(scalar(r), scalar(r)) : scalar(r)));
        }
        return new Row(id, service, severity, scope, trace, template, line, templated, attributes);
    }

    private static Object scalar(SplittableRandom r) {
        switch (r.nextInt(4)) {
            case 0:
                return pick(r, List.of(-1L, 0L, 5L, 500L, 503L));
            case 1:
                return pick(r, List.of(0.5, 12.5, 500.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY));
            case 2:
                return pick(r, List.of("500", "u-42", "abc", "Abc", ""));
            default:
                return r.nextBoolean();
        }
    }

    private static LogRecord record(Row row) {
        LogRecord.Builder b = LogRecord.builder(TENANT).timeUnixNano(BASE + row.id()).severityNumber(row.severity())
                .templateId(row.templateId()).scopeName(row.scope())
                .traceId(row.traceHex() == null ? null : Bytes.fromHex(row.traceHex()));
        List<KeyValue> resource = new ArrayList<>();
        if (row.service() != null) {
            resource.add(KeyValue.of("service.name", row.service()));
            b.serviceName(row.service());
        }
        b.resourceAttributes(AttributesJson.encode(resource));
        List<KeyValue> attributes = new ArrayList<>();
        for (Map.Entry<String, Object> e : row.attributes()) {
            attributes.add(new KeyValue(e.getKey(), anyValue(e.getValue())));
        }
        b.attributes(AttributesJson.encode(attributes));
        if (row.line() == null) {
            b.bodyKind(BodyKind.ABSENT);
        } else if (!row.templated()) {
            b.bodyKind(BodyKind.STRING).body(row.line().getBytes(StandardCharsets.UTF_8));
        } else {
            // The whole line as one parameter between two empty separators: its line is the same text.
            b.bodyKind(BodyKind.ABSENT).separators(List.of(new byte[0], new byte[0]))
                    .params(List.of(new Param(6, row.line().getBytes(StandardCharsets.UTF_8))));
        }
        return b.build();
    }

    private static AnyValue anyValue(Object v) {
        if (v instanceof Long l) {
            return AnyValue.of(l);
        }
        if (v instanceof Double d) {
            return AnyValue.of(d);
        }
        if (v instanceof Boolean bool) {
            return AnyValue.of(bool);
        }
        if (v instanceof List<?> list) {
            return new AnyValue.ArrayValue(list.stream().map(SearchPropertyTest::anyValue).toList());
        }
        return AnyValue.of((String) v);
    }

    // ------------------------------------------------------------------ expressions

    private static Gen expression(SplittableRandom r, int depth) {
        int kind = depth == 0 ? 0 : r.nextInt(6);
        switch (kind) {
            case 1: { // NOT
                Gen inner = expression(r, depth - 1);
                boolean dash = r.nextBoolean();
                String text = (dash ? "-" : "NOT ") + wrap(inner, 3, r);
                return new Gen(text, 3, row -> !inner.model().test(row));
            }
            case 2:
            case 3: { // AND, written out or by juxtaposition
                List<Gen> parts = parts(r, depth);
                StringBuilder text = new StringBuilder();
                for (Gen g : parts) {
                    text.append(text.length() == 0 ? "" : r.nextBoolean() ? " AND " : " ").append(wrap(g, 2, r));
                }
                return new Gen(text.toString(), 2, row -> parts.stream().allMatch(g -> g.model().test(row)));
            }
            case 4: { // OR
                List<Gen> parts = parts(r, depth);
                StringBuilder text = new StringBuilder();
                for (Gen g : parts) {
                    text.append(text.length() == 0 ? "" : " OR ").append(wrap(g, 1, r));
                }
                return new Gen(text.toString(), 1, row -> parts.stream().anyMatch(g -> g.model().test(row)));
            }
            default:
                return leaf(r);
        }
    }

    private static List<Gen> parts(SplittableRandom r, int depth) {
        List<Gen> parts = new ArrayList<>();
        for (int i = 2 + r.nextInt(2); i > 0; i--) {
            parts.add(expression(r, depth - 1));
        }
        return parts;
    }

    /** The expression's text, in parentheses where precedence needs them (and sometimes where it does not). */
    private static String wrap(Gen g, int context, SplittableRandom r) {
        return g.precedence() < context || r.nextInt(6) == 0 ? "(" + g.text() + ")" : g.text();
    }

    private static Gen leaf(SplittableRandom r) {
        switch (r.nextInt(14)) {
            case 0: { // a word, in any case
                String w = pick(r, WORDS);
                String text = r.nextBoolean() ? w.toUpperCase(Locale.ROOT) : w;
                Pattern p = Pattern.compile("(?<!" + TOKEN + ")" + Pattern.quote(w.toLowerCase(Locale.ROOT))
                        + "(?!" + TOKEN + ")");
                return leaf(text, row -> row.line() != null && p.matcher(lower(row.line())).find());
            }
            case 1: { // a prefix
                String w = pick(r, WORDS);
                String prefix = w.substring(0, 1 + r.nextInt(w.length()));
                Pattern p = Pattern.compile("(?<!" + TOKEN + ")" + Pattern.quote(prefix.toLowerCase(Locale.ROOT)));
                return leaf(prefix + "*", row -> row.line() != null && p.matcher(lower(row.line())).find());
            }
            case 2: { // a phrase of two words
                String a = pick(r, WORDS);
                String b = pick(r, WORDS);
                Pattern p = Pattern.compile("(?<!" + TOKEN + ")" + Pattern.quote(lower(a)) + "[^\\p{L}\\p{M}\\p{Nd}_]+"
                        + Pattern.quote(lower(b)) + "(?!" + TOKEN + ")");
                return leaf("\"" + a + " " + b + "\"", row -> row.line() != null && p.matcher(lower(row.line())).find());
            }
            case 3: { // a regex on the line
                String re = pick(r, REGEXES);
                Pattern p = Pattern.compile(re);
                return leaf("/" + re + "/", row -> row.line() != null && p.matcher(row.line()).find());
            }
            case 4: { // service
                String s = pick(r, SERVICES);
                switch (r.nextInt(3)) {
                    case 0:
                        return leaf("service:" + s, row -> s.equals(row.service()));
                    case 1: {
                        String pre = s.substring(0, 1 + r.nextInt(s.length()));
                        return leaf("service:" + pre + "*", row -> row.service() != null
                                && row.service().startsWith(pre));
                    }
                    default: {
                        String t = pick(r, SERVICES);
                        return leaf("service:(" + s + " OR \"" + t + "\")", row -> s.equals(row.service())
                                || t.equals(row.service()));
                    }
                }
            }
            case 5: { // severity: a number or a name, with or without an operator
                String op = pick(r, List.of("", ">", ">=", "<", "<="));
                boolean byName = r.nextBoolean();
                int band = r.nextInt(6);
                int n = r.nextInt(25);
                int lo = byName ? band * 4 + 1 : n;
                int hi = byName ? band * 4 + 4 : n;
                String bound = byName ? NAMES[band] : Integer.toString(n);
                Predicate<Row> model = switch (op) {
                    case ">" -> row -> row.severity() > hi;
                    case ">=" -> row -> row.severity() >= lo;
                    case "<" -> row -> row.severity() < lo;
                    case "<=" -> row -> row.severity() <= hi;
                    default -> row -> row.severity() >= lo && row.severity() <= hi;
                };
                return leaf("severity:" + op + bound, model);
            }
            case 6: { // an attribute equal to a literal, typed
                String key = pick(r, KEYS);
                String literal = pick(r, LITERALS);
                return leaf("attributes." + key + ":" + literal, row -> anyValue(row, key, v -> typedEquals(v, literal)));
            }
            case 7: { // an attribute equal to a quoted string
                String key = pick(r, KEYS);
                String literal = pick(r, LITERALS);
                return leaf("attributes." + key + ":\"" + literal + "\"", row -> anyValue(row, key, literal::equals));
            }
            case 8: { // a numeric range on an attribute
                String key = pick(r, KEYS);
                String op = pick(r, List.of(">", ">=", "<", "<="));
                String bound = pick(r, List.of("0", "5", "500", "12.5", "-1", "5e2", "-0.5"));
                BigDecimal n = new BigDecimal(bound);
                return leaf("attributes." + key + ":" + op + bound, row -> anyValue(row, key, v -> {
                    BigDecimal x = number(v);
                    if (x == null) {
                        return v instanceof Double d && Double.isInfinite(d) && (op.startsWith(">") == d > 0);
                    }
                    int c = x.compareTo(n);
                    return switch (op) {
                        case ">" -> c > 0;
                        case ">=" -> c >= 0;
                        case "<" -> c < 0;
                        default -> c <= 0;
                    };
                }));
            }
            case 9: { // an attribute exists
                String key = pick(r, KEYS);
                return leaf("attributes." + key + ":*", row -> row.attributes().stream()
                        .anyMatch(e -> e.getKey().equals(key)));
            }
            case 10: { // the trace id
                if (r.nextBoolean()) {
                    return leaf("trace_id:*", row -> row.traceHex() != null);
                }
                String t = pick(r, TRACES);
                return leaf("trace_id:" + (r.nextBoolean() ? t.toUpperCase(Locale.ROOT) : t),
                        row -> t.equals(row.traceHex()));
            }
            case 11: { // the template id
                long id = pick(r, List.of(0L, 42L, -1L));
                return leaf("template_id:" + Long.toUnsignedString(id), row -> row.templateId() == id);
            }
            case 12: { // the scope
                String s = pick(r, List.of("cart.server", "checkout", "cart"));
                return leaf("scope:" + s, row -> s.equals(row.scope()));
            }
            default: { // an attribute prefix
                String key = pick(r, KEYS);
                String pre = pick(r, List.of("5", "50", "u-", "a", "t", "-"));
                return leaf("attributes." + key + ":" + pre + "*", row -> anyValue(row, key, v -> {
                    String text = v instanceof String s ? s : v instanceof Long l ? Long.toString(l)
                            : v instanceof Boolean b ? Boolean.toString(b) : null;
                    return text != null && text.startsWith(pre);
                }));
            }
        }
    }

    private static Gen leaf(String text, Predicate<Row> model) {
        return new Gen(text, 4, model);
    }

    private static boolean anyValue(Row row, String key, Predicate<Object> test) {
        for (Map.Entry<String, Object> e : row.attributes()) {
            if (e.getKey().equals(key)) {
                Object v = e.getValue();
                if (v instanceof List<?> list ? list.stream().anyMatch(test::test) : test.test(v)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean typedEquals(Object v, String literal) {
        if (v instanceof String s) {
            return s.equals(literal);
        }
        if (v instanceof Boolean b) {
            return literal.equals(b.toString());
        }
        BigDecimal x = number(v);
        if (x == null) {
            return false;
        }
        try {
            return x.compareTo(new BigDecimal(literal)) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A finite numeric value exactly, else null. */
    private static BigDecimal number(Object v) {
        if (v instanceof Long l) {
            return BigDecimal.valueOf(l);
        }
        if (v instanceof Double d && !d.isNaN() && !d.isInfinite()) {
            return new BigDecimal(d);
        }
        return null;
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    private static <T> T pick(SplittableRandom r, List<T> from) {
        return from.get(r.nextInt(from.size()));
    }
}
