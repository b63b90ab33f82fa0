package dev.ourios.query.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ourios.core.LogRecord;
import dev.ourios.testkit.TestSeed;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An attribute equality decides a row whose JSON has no escape without parsing it (a value absent from the text is
 * absent from the row), and parses every other row: the answer is the same as the parsed attributes give, however a
 * writer escaped its JSON (any character may be written as a {@code \\u} escape).
 */
class AttributeEqualityTest {
    private static final List<String> KEYS = List.of("user", "app.user.id", "k");
    private static final List<String> VALUES = List.of("alice", "bob", "alice2", "ünï", "x-y", "Alice");

    @Test
    void equality_answers_as_the_parsed_attributes_whatever_the_escapes() throws Exception {
        long seed = TestSeed.announce(AttributeEqualityTest.class);
        Random random = new Random(seed);
        for (int i = 0; i < 3_000; i++) {
            List<String[]> pairs = new ArrayList<>();
            for (int n = random.nextInt(4); n > 0; n--) {
                pairs.add(new String[] {pick(KEYS, random), pick(VALUES, random)});
            }
            double escapes = random.nextInt(3) == 0 ? 0.3 : 0.0;
            String json = json(pairs, escapes, random);
            String key = pick(KEYS, random);
            String value = pick(VALUES, random);
            boolean expected = pairs.stream().anyMatch(p -> p[0].equals(key) && p[1].equals(value));
            LogRecord row = LogRecord.builder("t").bodyKind(0).attributes(json).resourceAttributes(json).build();
            String where = "seed " + seed + ", " + json + ", " + key + ":" + value;
            assertEquals(expected, SearchQuery.parse("attributes." + key + ":" + value).test(row), where);
            assertEquals(expected, SearchQuery.parse("attributes." + key + ":\"" + value + "\"").test(row), where);
            assertEquals(expected, SearchQuery.parse("resource." + key + ":" + value).test(row), where);
        }
    }

    private static String pick(List<String> from, Random random) {
        return from.get(random.nextInt(from.size()));
    }

    /** OTLP/JSON attributes, each character of keys and values escaped as {@code \\uXXXX} with probability p. */
    private static String json(List<String[]> pairs, double p, Random random) {
        StringBuilder b = new StringBuilder("[");
        for (String[] kv : pairs) {
            b.append(b.length() > 1 ? "," : "").append("{\"key\":\"").append(escaped(kv[0], p, random))
                    .append("\",\"value\":{\"stringValue\":\"").append(escaped(kv[1], p, random)).append("\"}}");
        }
        return b.append(']').toString();
    }

    private static String escaped(String s, double p, Random random) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (random.nextDouble() < p) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
