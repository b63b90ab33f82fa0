package dev.ourios.query.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import dev.ourios.testkit.TestSeed;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A numeric range on an attribute is decided on the JSON text when it is canonical and escape-free
 * ({@link AttributeRangeScan}); every answer equals the parsed attributes' however the JSON is written (escapes,
 * white space, other spellings, arrays, nested key-value lists holding the key, numbers at the edges).
 */
class AttributeRangeScanTest {
    private static final List<String> KEYS = List.of("n", "app.product.quantity", "n2", "x");
    private static final String[] OPS = {">", ">=", "<", "<="};

    @Test
    void ranges_answer_as_the_parsed_attributes_whatever_the_json() throws Exception {
        long seed = TestSeed.announce(AttributeRangeScanTest.class);
        Random random = new Random(seed);
        int decidedOnText = 0;
        for (int i = 0; i < 20_000; i++) {
            List<KeyValue> attributes = new ArrayList<>();
            for (int n = random.nextInt(4); n > 0; n--) {
                attributes.add(new KeyValue(KEYS.get(random.nextInt(KEYS.size())), value(random, 0)));
            }
            String json = respell(AttributesJson.encode(attributes), random);
            String key = KEYS.get(random.nextInt(KEYS.size()));
            String bound = bound(random);
            String op = OPS[random.nextInt(OPS.length)];
            SearchQuery q = SearchQuery.parse("attributes." + key + ":" + op + bound);
            boolean expected = expected(AttributesJson.decode(json), key, op, new BigDecimal(bound));
            LogRecord row = LogRecord.builder("t").bodyKind(0).attributes(json).resourceAttributes(json).build();
            String where = "seed " + seed + ", " + json + ", " + key + ":" + op + bound;
            assertEquals(expected, q.test(row), where);
            assertEquals(expected, SearchQuery.parse("resource." + key + ":" + op + bound).test(row), where);
            Match.Range range = (Match.Range) ((Expr.Term) q.expression()).match();
            int known = new AttributeRangeScan(key, new NumericBounds(range)).decide(json);
            if (known != AttributeRangeScan.UNKNOWN) {
                decidedOnText++;
                assertEquals(expected, known == AttributeRangeScan.YES, where);
            }
        }
        assertTrue(decidedOnText > 10_000, "the text decided " + decidedOnText + " rows");
    }

    private static AnyValue value(Random random, int depth) {
        switch (random.nextInt(depth > 1 ? 6 : 8)) {
            case 0, 1:
                return AnyValue.of(switch (random.nextInt(5)) {
                    case 0 -> Long.MAX_VALUE - random.nextInt(2);
                    case 1 -> Long.MIN_VALUE + random.nextInt(2);
                    default -> (long) random.nextInt(41) - 20;
                });
            case 2:
                return new AnyValue.DoubleValue(switch (random.nextInt(6)) {
                    case 0 -> Double.NaN;
                    case 1 -> random.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
                    case 2 -> random.nextBoolean() ? -0.0 : 0.0;
                    case 3 -> random.nextDouble() * 1e22 * (random.nextBoolean() ? 1 : -1);
                    default -> (random.nextInt(400) - 200) / 8.0;
                });
            case 3:
                return AnyValue.of(random.nextBoolean() ? "5" : "n");
            case 4:
                return new AnyValue.BoolValue(random.nextBoolean());
            case 5:
                return new AnyValue.EmptyValue();
            case 6:
                List<AnyValue> elements = new ArrayList<>();
                for (int n = random.nextInt(3); n > 0; n--) {
                    elements.add(value(random, depth + 1));
                }
                return new AnyValue.ArrayValue(elements);
            default:
                List<KeyValue> inner = new ArrayList<>();
                for (int n = random.nextInt(3); n > 0; n--) {
                    inner.add(new KeyValue(KEYS.get(random.nextInt(KEYS.size())), value(random, depth + 1)));
                }
                return new AnyValue.KvListValue(inner);
        }
    }

    private static String bound(Random random) {
        return switch (random.nextInt(5)) {
            case 0 -> Long.toString(Long.MAX_VALUE - 1 + random.nextInt(3));
            case 1 -> "-0";
            case 2 -> (random.nextInt(40) - 20) + "." + random.nextInt(10);
            case 3 -> random.nextInt(9) + "e" + random.nextInt(25);
            default -> Integer.toString(random.nextInt(41) - 20);
        };
    }

    /** The canonical text, or (one in four) a spelling the parser also takes: escapes, white space, other names. */
    private static String respell(String json, Random random) {
        return switch (random.nextInt(12)) {
            case 0 -> json.replace("\"key\"", "\"k\\u0065y\"");
            case 1 -> json.replace(",", ", ");
            case 2 -> json.replace("intValue", "int_value").replace("doubleValue", "double_value");
            default -> json;
        };
    }

    private static boolean expected(List<KeyValue> attributes, String key, String op, BigDecimal n) {
        for (KeyValue kv : attributes) {
            if (kv.key().equals(key) && matches(kv.value(), op, n)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(AnyValue v, String op, BigDecimal n) {
        BigDecimal x;
        if (v instanceof AnyValue.ArrayValue a) {
            return a.values().stream().anyMatch(e -> matches(e, op, n));
        } else if (v instanceof AnyValue.IntValue i) {
            x = BigDecimal.valueOf(i.value());
        } else if (v instanceof AnyValue.DoubleValue d && !Double.isNaN(d.value())) {
            if (Double.isInfinite(d.value())) {
                return d.value() > 0 ? op.startsWith(">") : op.startsWith("<");
            }
            x = new BigDecimal(d.value());
        } else {
            return false;
        }
        int c = x.compareTo(n);
        boolean above = op.startsWith(">");
        return (above ? c > 0 : c < 0) || op.endsWith("=") && c == 0;
    }
}
