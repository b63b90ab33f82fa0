package dev.ourios.parquet.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import dev.ourios.otlp.OtlpJsonDecoder;
import dev.ourios.parquet.LogSchema;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.LocalObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every double survives OTLP/JSON → decode → Parquet write → read → canonical-JSON decode bit for bit: the sign of
 * zero, subnormals, the extremes and ±Infinity. NaN comes back as NaN (proto3 JSON spells it {@code "NaN"}, so a
 * payload cannot be carried; storage.md, section 2.1). Doubles sit in a record attribute, an array element, a
 * structured body, a scope attribute, a resource attribute and a DOUBLE extra column.
 */
class DoubleRoundTripPropertyTest {
    private static final double[] EDGES = {-0.0, 0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL,
            -Double.MIN_NORMAL, Math.nextDown(Double.MIN_NORMAL), Double.MAX_VALUE, -Double.MAX_VALUE,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 1.0, -1.0, 0.1, 1e308, 4.9e-324};

    @TempDir
    Path dir;

    @Test
    void randomDoublesRoundTripBitIdentical() throws Exception {
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        Random rnd = new Random(seed);
        try {
            List<Double> values = new ArrayList<>();
            for (double d : EDGES) {
                values.add(d);
            }
            for (int i = 0; i < 2000; i++) {
                values.add(randomDouble(rnd));
            }
            check(values, rnd);
        } catch (AssertionError | Exception e) {
            System.err.println("randomDoublesRoundTripBitIdentical failed with -Dourios.seed=" + seed);
            throw e;
        }
    }

    private void check(List<Double> values, Random rnd) throws Exception {
        var extras = new java.util.TreeMap<String, org.apache.parquet.schema.PrimitiveType>(
                java.util.Map.of("attr.x", LogSchema.doubleColumn("attr.x")));
        var store = new LocalObjectStore(dir);
        List<LogRecord> in = new ArrayList<>();
        for (double d : values) {
            String v = spell(d, rnd);
            String doc = "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"r\",\"value\":{\"doubleValue\":"
                    + v + "}}]},\"scopeLogs\":[{\"scope\":{\"name\":\"s\",\"attributes\":[{\"key\":\"s\",\"value\":"
                    + "{\"doubleValue\":" + v + "}}]},\"logRecords\":[{\"timeUnixNano\":\"" + TestFiles.HOUR + "\","
                    + "\"body\":{\"doubleValue\":" + v + "},\"attributes\":[{\"key\":\"d\",\"value\":{\"doubleValue\":"
                    + v + "}},{\"key\":\"a\",\"value\":{\"arrayValue\":{\"values\":[{\"doubleValue\":" + v
                    + "},{\"doubleValue\":1.5}]}}}]}]}]}]}";
            LogRecord r = OtlpJsonDecoder.decode("t1", doc).get(0);
            in.add(LogRecord.builder("t1").timeUnixNano(r.timeUnixNano()).attributes(r.attributes())
                    .resourceAttributes(r.resourceAttributes()).scopeName(r.scopeName())
                    .scopeAttributes(r.scopeAttributes()).bodyKind(r.bodyKind()).body(r.body())
                    .lossyFlag(r.lossyFlag()).confidence(r.confidence()).extra("attr.x", d).build());
        }
        TestFiles.write(store, "d.parquet", WriterOptions.ingest().withExtras(extras), in);
        List<LogRecord> out = TestFiles.readAll(store, "d.parquet", ReadOptions.all());
        assertEquals(values.size(), out.size());
        for (int i = 0; i < values.size(); i++) {
            double want = values.get(i);
            LogRecord r = out.get(i);
            String at = "value " + Double.toString(want) + " (bits " + Long.toHexString(
                    Double.doubleToRawLongBits(want)) + ")";
            List<KeyValue> attrs = AttributesJson.decode(r.attributes());
            assertSame(want, attrs.get(0).value(), at + " in an attribute");
            assertSame(want, ((AnyValue.ArrayValue) attrs.get(1).value()).values().get(0), at + " in an array");
            assertSame(want, AttributesJson.decodeValue(new String(r.body(), StandardCharsets.UTF_8)), at + " in a body");
            assertSame(want, AttributesJson.decode(r.scopeAttributes()).get(0).value(), at + " in a scope attribute");
            assertSame(want, AttributesJson.decode(r.resourceAttributes()).get(0).value(),
                    at + " in a resource attribute");
            assertSame(want, new AnyValue.DoubleValue((Double) r.extras().get("attr.x")), at + " in a DOUBLE column");
        }
    }

    private static void assertSame(double want, AnyValue got, String where) {
        assertTrue(got instanceof AnyValue.DoubleValue, where + ": got " + got);
        double d = ((AnyValue.DoubleValue) got).value();
        if (Double.isNaN(want)) {
            assertTrue(Double.isNaN(d), where + ": got " + d);
        } else {
            assertEquals(Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(d), where + ": got " + d);
        }
    }

    /** Random bit patterns (every exponent, NaNs included), half of them forced subnormal or zero. */
    private static double randomDouble(Random rnd) {
        long bits = rnd.nextLong();
        return switch (rnd.nextInt(4)) {
            case 0 -> Double.longBitsToDouble(bits & 0x800F_FFFF_FFFF_FFFFL); // subnormal (or ±0)
            case 1 -> Double.longBitsToDouble(bits & 0x8000_0000_0000_0000L); // ±0
            default -> Double.longBitsToDouble(bits);
        };
    }

    /** Every spelling OTLP/JSON allows: a JSON number, an exponent form, or a decimal string. */
    private static String spell(double d, Random rnd) {
        if (Double.isNaN(d)) {
            return "\"NaN\"";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "\"Infinity\"" : "\"-Infinity\"";
        }
        String s = Double.toString(d);
        return switch (rnd.nextInt(4)) {
            case 0 -> "\"" + s + "\"";
            // the exact decimal expansion (hundreds of digits for a subnormal), or zero with an exponent
            case 1 -> d == 0 ? (Double.doubleToRawLongBits(d) < 0 ? "-0.0e3" : "0E-2")
                    : new java.math.BigDecimal(d).toString();
            case 2 -> d == 0 ? (Double.doubleToRawLongBits(d) < 0 ? "-0" : "0") : s;
            default -> s;
        };
    }
}
