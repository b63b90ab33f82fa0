package dev.ourios.parquet.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The streaming reader of attribute strings finds exactly the (key, string) pairs the decoder's values hold, arrays
 * walked at any depth, on the canonical form and on other spellings. The seed is printed;
 * {@code -Dourios.index.seed=S} replays a run.
 */
class AttributeStringsTest {
    private static final List<String> TEXTS = List.of("", "a", "Zürich", "quote\"d", "back\\slash", "日本", "u-42",
            "\n\t", "500");

    @Test
    void the_streaming_reader_finds_the_strings_the_decoder_finds() {
        long seed = Long.getLong("ourios.index.seed", System.nanoTime());
        System.out.println("AttributeStringsTest: seed " + seed + " (replay with -Dourios.index.seed=" + seed + ")");
        Random rnd = new Random(seed);
        for (int round = 0; round < 3000; round++) {
            List<KeyValue> kvs = new ArrayList<>();
            for (int i = rnd.nextInt(6); i > 0; i--) {
                kvs.add(new KeyValue(TEXTS.get(rnd.nextInt(TEXTS.size())) + "k", value(rnd, 3)));
            }
            String json = AttributesJson.encode(kvs);
            check(json, seed, round);
            check(json.replace("stringValue", "string_value"), seed, round);
        }
        assertTrue(scannedCount > 1000, "the canonical texts without an escape are scanned: " + scannedCount);
        check("[{\"value\":{\"stringValue\":\"v\"},\"key\":\"k\"}]", seed, -1); // members out of order: decoder
        check("[]", seed, -2);
        check("[{\"key\":\"k\",\"value\":{\"stringValue\":null}}]", seed, -3);
    }

    private int scannedCount;

    @Test
    void the_scanner_reads_what_the_parser_reads_or_leaves_it_to_the_parser() {
        List<String> texts = List.of("[]", "[ ]", "[]x", "[{\"key\":\"k\",\"value\":{\"stringValue\":\"v\"}}]",
                "[{\"key\":\"k\",\"value\":{\"stringValue\":\"v\"}}] ",
                "[{\"key\":\"k\", \"value\":{\"stringValue\":\"v\"}}]",
                "[{\"key\":\"k\",\"value\":{\"stringValue\":\"a\tb\"}}]",
                "[{\"key\":\"k\",\"value\":{\"intValue\":01}}]",
                "[{\"key\":\"k\",\"value\":{\"intValue\":-0.5e+3}}]",
                "[{\"key\":\"k\",\"value\":{\"intValue\":-}}]",
                "[{\"key\":\"k\",\"value\":{\"doubleValue\":1.}}]",
                "[{\"key\":\"k\",\"value\":{\"boolValue\":true,\"stringValue\":\"s\"}}]",
                "[{\"key\":\"k\",\"value\":{\"stringValue\":7}}]",
                "[{\"key\":\"k\",\"value\":{\"stringValue\":null}},{\"key\":\"日\",\"value\":{\"stringValue\":\"}{,\"}}]",
                "[{\"key\":\"k\",\"value\":{}}]", "[{\"key\":\"k\",\"value\":{\"stringValue\":\"v\"}},]",
                "[{\"key\":\"k\",\"value\":{\"stringValue\":\"v\"}}", "[{\"key\":\"k\",\"value\":{\"stringValue\":\"v");
        for (String json : texts) {
            List<String[]> scanned = AttributeStrings.scanned(json);
            if (scanned != null) {
                assertEquals(pairs(AttributeStrings.fast(json)), pairs(scanned), json);
            }
        }
        assertEquals(List.of("k=v"), pairs(AttributeStrings.scanned(texts.get(3))));
    }

    private static List<String> pairs(List<String[]> pairs) {
        return pairs == null ? null : pairs.stream().map(p -> p[0] + "=" + p[1]).toList();
    }

    private void check(String json, long seed, int round) {
        List<String[]> scanned = AttributeStrings.scanned(json);
        if (scanned != null) {
            scannedCount++;
            assertEquals(pairs(AttributeStrings.fast(json)), pairs(scanned), "seed " + seed + ", round " + round
                    + ": the scanner against the parser: " + json);
        }
        List<String> expected = new ArrayList<>();
        for (KeyValue kv : AttributesJson.decode(json)) {
            walk(kv.key(), kv.value(), expected);
        }
        List<String> actual = new ArrayList<>();
        AttributeStrings.each(json, (k, v) -> actual.add(k + "=" + v));
        expected.sort(null);
        actual.sort(null);
        assertEquals(expected, actual, "seed " + seed + ", round " + round + ": " + json);
    }

    private static void walk(String key, AnyValue v, List<String> out) {
        if (v instanceof AnyValue.StringValue s) {
            out.add(key + "=" + s.value());
        } else if (v instanceof AnyValue.ArrayValue a) {
            a.values().forEach(e -> walk(key, e, out));
        }
    }

    private static AnyValue value(Random rnd, int depth) {
        switch (rnd.nextInt(depth > 0 ? 8 : 6)) {
            case 0:
            case 1:
                return AnyValue.of(TEXTS.get(rnd.nextInt(TEXTS.size())));
            case 2:
                return AnyValue.of(rnd.nextLong());
            case 3:
                return AnyValue.of(rnd.nextBoolean());
            case 4:
                return AnyValue.of(rnd.nextDouble());
            case 5:
                return new AnyValue.BytesValue(new byte[] {1, 2});
            case 6: {
                List<AnyValue> items = new ArrayList<>();
                for (int i = rnd.nextInt(4); i > 0; i--) {
                    items.add(value(rnd, depth - 1));
                }
                return new AnyValue.ArrayValue(items);
            }
            default: {
                List<KeyValue> items = new ArrayList<>();
                for (int i = rnd.nextInt(3); i > 0; i--) {
                    items.add(new KeyValue("n" + i, value(rnd, depth - 1)));
                }
                return new AnyValue.KvListValue(items);
            }
        }
    }
}
