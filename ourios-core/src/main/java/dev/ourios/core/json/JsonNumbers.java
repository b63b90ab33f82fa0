package dev.ourios.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Integer fields of proto3 JSON: a JSON number or a decimal string (64-bit fields are usually strings, because
 * JavaScript numbers lose precision). Out-of-range values are errors naming the field, never saturated or wrapped:
 * a silently clamped timestamp would put a row into the wrong partition.
 */
public final class JsonNumbers {
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger U32_MAX = BigInteger.valueOf(0xFFFF_FFFFL);
    /** More digits than any 64-bit field holds, with room to name the value in the range error. */
    private static final int MAX_INTEGER_DIGITS = 40;

    private JsonNumbers() {
    }

    /** The exact integer a number or string node denotes ({@code 10}, {@code "10"}, {@code 1e3}, {@code "1.0"}). */
    public static BigInteger integral(JsonNode node, String path) {
        if (node.isIntegralNumber()) {
            return node.bigIntegerValue();
        }
        BigDecimal d;
        if (node.isNumber()) {
            d = node.decimalValue();
        } else if (node.isTextual()) {
            String s = node.textValue().trim();
            if (s.isEmpty() || s.length() > 40) {
                throw new JsonPathException(path, "'" + node.textValue() + "' is not an integer");
            }
            try {
                d = new BigDecimal(s);
            } catch (NumberFormatException e) {
                throw new JsonPathException(path, "'" + node.textValue() + "' is not an integer", e);
            }
        } else {
            throw new JsonPathException(path, "expected an integer (number or decimal string), got " + node.getNodeType());
        }
        // Checked before converting: 1e1000000000 is a few bytes of JSON but a gigabyte as a BigInteger, and
        // 1e-1000000000 would be divided out digit by digit.
        if (d.signum() != 0 && d.precision() - d.scale() > MAX_INTEGER_DIGITS) {
            throw new JsonPathException(path, "value " + d + " is outside any integer range this field allows");
        }
        if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
            throw new JsonPathException(path, "value " + d + " is not an integer");
        }
        return d.toBigInteger();
    }

    /** A signed 64-bit field (AnyValue.intValue). */
    public static long int64(JsonNode node, String path) {
        BigInteger v = integral(node, path);
        if (v.compareTo(LONG_MAX) > 0 || v.compareTo(LONG_MIN) < 0) {
            throw new JsonPathException(path, "value " + v + " exceeds the signed 64-bit range");
        }
        return v.longValue();
    }

    /**
     * An unsigned 64-bit wire field (timestamps) stored in a signed 64-bit column: values above
     * {@link Long#MAX_VALUE} (after year 2262) are rejected rather than wrapped to negative times.
     */
    public static long u64AsInt64(JsonNode node, String path) {
        BigInteger v = integral(node, path);
        if (v.signum() < 0) {
            throw new JsonPathException(path, "value " + v + " is negative; the field is unsigned");
        }
        if (v.compareTo(LONG_MAX) > 0) {
            throw new JsonPathException(path, "value " + v + " exceeds the signed 64-bit range");
        }
        return v.longValue();
    }

    /** An unsigned 32-bit field, returned bit for bit in an {@code int} (as the Parquet UINT32 columns hold it). */
    public static int u32(JsonNode node, String path) {
        BigInteger v = integral(node, path);
        if (v.signum() < 0 || v.compareTo(U32_MAX) > 0) {
            throw new JsonPathException(path, "value " + v + " is outside the unsigned 32-bit range");
        }
        return (int) v.longValue();
    }
}
