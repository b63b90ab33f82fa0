package dev.ourios.core.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AttributesJsonTest {

    @Test
    void encodesTheCanonicalForm() {
        assertEquals("[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"api\"}},"
                + "{\"key\":\"n\",\"value\":{\"intValue\":\"42\"}}]",
                AttributesJson.encode(List.of(KeyValue.of("service.name", "api"), KeyValue.of("n", 42))));
        assertEquals("[]", AttributesJson.encode(List.of()));
    }

    @Test
    void encodesEveryValueKind() {
        List<KeyValue> kvs = List.of(
                KeyValue.of("b", true),
                new KeyValue("d", AnyValue.of(637.704)),
                new KeyValue("nan", AnyValue.of(Double.NaN)),
                new KeyValue("inf", AnyValue.of(Double.NEGATIVE_INFINITY)),
                new KeyValue("bytes", new AnyValue.BytesValue(new byte[] {0, (byte) 0xFF, 1})),
                new KeyValue("arr", new AnyValue.ArrayValue(List.of(AnyValue.of("x"), AnyValue.of(-1L)))),
                new KeyValue("map", new AnyValue.KvListValue(List.of(KeyValue.of("k", "v")))),
                new KeyValue("empty", new AnyValue.EmptyValue()));
        String json = AttributesJson.encode(kvs);
        assertEquals("[{\"key\":\"b\",\"value\":{\"boolValue\":true}},"
                + "{\"key\":\"d\",\"value\":{\"doubleValue\":637.704}},"
                + "{\"key\":\"nan\",\"value\":{\"doubleValue\":\"NaN\"}},"
                + "{\"key\":\"inf\",\"value\":{\"doubleValue\":\"-Infinity\"}},"
                + "{\"key\":\"bytes\",\"value\":{\"bytesValue\":\"AP8B\"}},"
                + "{\"key\":\"arr\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"x\"},"
                + "{\"intValue\":\"-1\"}]}}},"
                + "{\"key\":\"map\",\"value\":{\"kvlistValue\":{\"values\":[{\"key\":\"k\","
                + "\"value\":{\"stringValue\":\"v\"}}]}}},"
                + "{\"key\":\"empty\",\"value\":{}}]", json);
        assertEquals(kvs, AttributesJson.decode(json));
    }

    @Test
    void canonicalisesLenientSpellings() {
        String lenient = "[ {\"value\": {\"intValue\": 10}, \"key\": \"n\"},"
                + " {\"key\":\"s\",\"value\":{\"string_value\":\"x\",\"futureField\":1}},"
                + " {\"key\":\"b64\",\"value\":{\"bytesValue\":\"AP8\"}},"
                + " {\"key\":\"url\",\"value\":{\"bytesValue\":\"_-8=\"}},"
                + " {\"key\":\"d\",\"value\":{\"doubleValue\":\"Infinity\"}},"
                + " {\"key\":\"big\",\"value\":{\"intValue\":\"-9223372036854775808\"}},"
                + " {\"key\":\"nul\",\"value\":null}]";
        assertEquals("[{\"key\":\"n\",\"value\":{\"intValue\":\"10\"}},"
                + "{\"key\":\"s\",\"value\":{\"stringValue\":\"x\"}},"
                + "{\"key\":\"b64\",\"value\":{\"bytesValue\":\"AP8=\"}},"
                + "{\"key\":\"url\",\"value\":{\"bytesValue\":\"/+8=\"}},"
                + "{\"key\":\"d\",\"value\":{\"doubleValue\":\"Infinity\"}},"
                + "{\"key\":\"big\",\"value\":{\"intValue\":\"-9223372036854775808\"}},"
                + "{\"key\":\"nul\",\"value\":{}}]", AttributesJson.canonicalise(lenient));
        assertEquals(AttributesJson.canonicalise("[{\"key\":\"n\",\"value\":{\"intValue\":\"10\"}}]"),
                AttributesJson.canonicalise("[{\"key\":\"n\",\"value\":{\"intValue\":10}}]"));
    }

    @Test
    void preservesKeyOrderAndDuplicates() {
        List<KeyValue> kvs = List.of(KeyValue.of("z", "1"), KeyValue.of("a", "2"), KeyValue.of("z", "3"));
        assertEquals(kvs, AttributesJson.decode(AttributesJson.encode(kvs)));
    }

    @Test
    void randomAttributeListsRoundTripAndAreIdempotent() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < 2_000; i++) {
            List<KeyValue> kvs = randomList(r, 2);
            String json = AttributesJson.encode(kvs);
            String ctx = "seed=" + seed + " case=" + i + " json=" + json;
            assertEquals(kvs, AttributesJson.decode(json), ctx);
            assertEquals(json, AttributesJson.canonicalise(json), ctx);
            Optional<String> expected = AttributesJson.firstString(kvs, "k1");
            assertEquals(expected, AttributesJson.firstString(json, "k1"), ctx);
        }
    }

    @Test
    void reportsErrorsWithTheirPath() {
        var e = assertThrows(JsonPathException.class,
                () -> AttributesJson.decode("[{\"key\":\"a\",\"value\":{\"stringValue\":\"x\"}},"
                        + "{\"key\":\"n\",\"value\":{\"intValue\":\"9223372036854775808\"}}]"));
        assertEquals("attributes[1].value.intValue: value 9223372036854775808 exceeds the signed 64-bit range",
                e.getMessage());
        assertEquals("attributes[0].value.intValue",
                assertThrows(JsonPathException.class, () -> AttributesJson.decode(
                        "[{\"key\":\"n\",\"value\":{\"intValue\":\"4x\"}}]")).path());
        assertTrue(assertThrows(JsonPathException.class, () -> AttributesJson.decode(
                "[{\"key\":\"n\",\"value\":{\"intValue\":1,\"stringValue\":\"1\"}}]")).getMessage()
                .contains("more than one value set"));
        assertEquals("attributes[0].key", assertThrows(JsonPathException.class,
                () -> AttributesJson.decode("[{\"key\":5,\"value\":{}}]")).path());
        // proto3 JSON leaves a string at its default out: no key is the empty key, as protobuf reads it.
        assertEquals(List.of(new KeyValue("", new AnyValue.EmptyValue())), AttributesJson.decode("[{\"value\":{}}]"));
        assertTrue(assertThrows(JsonPathException.class, () -> AttributesJson.decode(
                "[{\"key\":\"s\",\"value\":{\"stringValueStrindex\":3}}]")).getMessage()
                .contains("string_value_strindex is not allowed in logs"));
        assertThrows(JsonPathException.class, () -> AttributesJson.decode("{\"key\":\"a\"}"));
        assertThrows(JsonPathException.class, () -> AttributesJson.decode("[{"));
        assertThrows(JsonPathException.class, () -> AttributesJson.decode(
                "[{\"key\":\"b\",\"value\":{\"bytesValue\":\"***\"}}]"));
        assertThrows(JsonPathException.class, () -> AttributesJson.decode(
                "[{\"key\":\"n\",\"value\":{\"intValue\":1.5}}]"));
    }

    @Test
    void firstStringTakesOnlyTheFirstOccurrenceAndOnlyStrings() {
        String json = AttributesJson.encode(List.of(KeyValue.of("host", "h"), KeyValue.of("service.name", "api"),
                KeyValue.of("service.name", "other")));
        assertEquals(Optional.of("api"), AttributesJson.firstString(json, "service.name"));
        assertEquals(Optional.empty(), AttributesJson.firstString(json, "missing"));
        assertEquals(Optional.empty(), AttributesJson.firstString("[]", "service.name"));

        String intFirst = AttributesJson.encode(List.of(KeyValue.of("service.name", 7), KeyValue.of("service.name",
                "late")));
        assertEquals(Optional.empty(), AttributesJson.firstString(intFirst, "service.name"));

        String nested = AttributesJson.encode(List.of(new KeyValue("m", new AnyValue.KvListValue(
                List.of(KeyValue.of("service.name", "inner"))))));
        assertEquals(Optional.empty(), AttributesJson.firstString(nested, "service.name"), "top level only");

        // Members in either order, escaped keys, and non-canonical spellings the scan may meet in old files.
        assertEquals(Optional.of("api"), AttributesJson.firstString(
                "[{\"value\":{\"stringValue\":\"api\"},\"key\":\"service\\u002ename\"}]", "service.name"));
        assertEquals(Optional.empty(), AttributesJson.firstString(
                "[{\"key\":\"service.name\",\"value\":{}}]", "service.name"));
        assertThrows(IllegalArgumentException.class, () -> AttributesJson.firstString("{}", "service.name"));
        assertThrows(IllegalArgumentException.class, () -> AttributesJson.firstString("[{\"key\":", "k"));
    }

    @Test
    void encodesSingleValuesForStructuredBodies() {
        AnyValue body = new AnyValue.KvListValue(List.of(KeyValue.of("event", "startup"), KeyValue.of("n", 1)));
        String json = AttributesJson.encodeValue(body);
        assertEquals("{\"kvlistValue\":{\"values\":[{\"key\":\"event\",\"value\":{\"stringValue\":\"startup\"}},"
                + "{\"key\":\"n\",\"value\":{\"intValue\":\"1\"}}]}}", json);
        assertEquals(body, AttributesJson.decodeValue(json));
        assertEquals("{\"stringValue\":\"\\\"q\\\"\\n\"}", AttributesJson.encodeValue(AnyValue.of("\"q\"\n")));
        assertEquals("{}", AttributesJson.encodeValue(new AnyValue.EmptyValue()));
    }

    @Test
    void cacheAgreesWithTheScanAndStaysBounded() {
        FirstStringCache cache = new FirstStringCache("service.name", 2);
        for (int round = 0; round < 3; round++) {
            for (String name : List.of("a", "b", "c", "d")) {
                String json = AttributesJson.encode(List.of(KeyValue.of("service.name", name)));
                assertEquals(Optional.of(name), cache.get(json));
            }
        }
        assertEquals(Optional.empty(), FirstStringCache.serviceName().get("[]"));
        assertThrows(IllegalArgumentException.class, () -> new FirstStringCache("k", 0));
    }

    private static List<KeyValue> randomList(Random r, int depth) {
        int n = r.nextInt(5);
        List<KeyValue> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new KeyValue("k" + r.nextInt(3), randomValue(r, depth)));
        }
        return out;
    }

    private static AnyValue randomValue(Random r, int depth) {
        int kind = r.nextInt(depth > 0 ? 8 : 6);
        return switch (kind) {
            case 0 -> AnyValue.of(randomString(r));
            case 1 -> AnyValue.of(r.nextBoolean());
            case 2 -> AnyValue.of(r.nextLong());
            case 3 -> AnyValue.of(r.nextInt(10) == 0 ? Double.NaN : r.nextGaussian() * Math.pow(10, r.nextInt(40)
                    - 20));
            case 4 -> {
                byte[] b = new byte[r.nextInt(6)];
                r.nextBytes(b);
                yield new AnyValue.BytesValue(b);
            }
            case 5 -> new AnyValue.EmptyValue();
            case 6 -> {
                List<AnyValue> vs = new ArrayList<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    vs.add(randomValue(r, depth - 1));
                }
                yield new AnyValue.ArrayValue(vs);
            }
            default -> new AnyValue.KvListValue(randomList(r, depth - 1));
        };
    }

    private static String randomString(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int i = r.nextInt(8); i > 0; i--) {
            int cp = switch (r.nextInt(3)) {
                case 0 -> r.nextInt(0x80);
                case 1 -> 0x80 + r.nextInt(0xD000);
                default -> 0x10000 + r.nextInt(0x1000);
            };
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    @Test
    void negativeZeroKeepsItsSignInEverySpelling() {
        long negZero = Double.doubleToRawLongBits(-0.0);
        for (String v : List.of("-0.0", "-0", "-0e5", "-0.000E-3", "\"-0.0\"", "\"-0\"")) {
            String json = "[{\"key\":\"d\",\"value\":{\"doubleValue\":" + v + "}}]";
            AnyValue d = AttributesJson.decode(json).get(0).value();
            assertEquals(negZero, Double.doubleToRawLongBits(((AnyValue.DoubleValue) d).value()), v);
            assertEquals("[{\"key\":\"d\",\"value\":{\"doubleValue\":-0.0}}]", AttributesJson.canonicalise(json), v);
        }
        assertEquals(0L, Double.doubleToRawLongBits(((AnyValue.DoubleValue) AttributesJson.decodeValue(
                "{\"doubleValue\":0.0}")).value()), "positive zero stays positive");
        // Exactness elsewhere is unchanged: integers beyond a double's precision are still exact.
        assertEquals(new AnyValue.IntValue(9007199254740993L),
                AttributesJson.decodeValue("{\"intValue\":9007199254740993}"));
    }

    @Test
    void contentAfterTheValueIsRefused() {
        assertThrows(JsonPathException.class, () -> AttributesJson.decode("[] []"));
        assertThrows(JsonPathException.class, () -> AttributesJson.decodeValue("{\"intValue\":\"1\"} x"));
    }
}
