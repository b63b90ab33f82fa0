package dev.ourios.query.search;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * A {@link Match.Range} prepared for fast, exact tests: the integers in the range as inclusive bounds on signed and
 * on unsigned 64-bit values, and the decimal bounds for doubles. Nothing is rounded: {@code 2.5} is above {@code 2}
 * and below {@code 3}, and the double {@code 0.1} is not equal to the number {@code 0.1}.
 */
final class NumericBounds {
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private final Match.Range range;
    private final boolean signedEmpty;
    private final long low;
    private final long high;
    private final boolean unsignedEmpty;
    private final long unsignedLow;
    private final long unsignedHigh;

    NumericBounds(Match.Range range) {
        this.range = range;
        BigInteger lo = smallestInteger(range);
        BigInteger hi = largestInteger(range);
        BigInteger signedLo = lo == null ? LONG_MIN : lo.max(LONG_MIN);
        BigInteger signedHi = hi == null ? LONG_MAX : hi.min(LONG_MAX);
        this.signedEmpty = signedLo.compareTo(signedHi) > 0;
        this.low = signedEmpty ? 0 : signedLo.longValue();
        this.high = signedEmpty ? 0 : signedHi.longValue();
        BigInteger unsignedLo = lo == null ? BigInteger.ZERO : lo.max(BigInteger.ZERO);
        BigInteger unsignedHi = hi == null ? U64_MAX : hi.min(U64_MAX);
        this.unsignedEmpty = unsignedLo.compareTo(unsignedHi) > 0;
        this.unsignedLow = unsignedEmpty ? 0 : unsignedLo.longValue();
        this.unsignedHigh = unsignedEmpty ? 0 : unsignedHi.longValue();
    }

    /** Whether the signed integer {@code v} is in the range. */
    boolean test(long v) {
        return !signedEmpty && v >= low && v <= high;
    }

    /** Whether the unsigned 64-bit integer whose bits {@code v} carries is in the range. */
    boolean testUnsigned(long v) {
        return !unsignedEmpty && Long.compareUnsigned(v, unsignedLow) >= 0
                && Long.compareUnsigned(v, unsignedHigh) <= 0;
    }

    /** Whether the double {@code v} is in the range, compared exactly; NaN never is. */
    boolean test(double v) {
        if (Double.isNaN(v)) {
            return false;
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? range.high() == null : range.low() == null;
        }
        BigDecimal d = new BigDecimal(v);
        if (range.low() != null) {
            int c = d.compareTo(range.low());
            if (c < 0 || (c == 0 && !range.lowInclusive())) {
                return false;
            }
        }
        if (range.high() != null) {
            int c = d.compareTo(range.high());
            return c < 0 || (c == 0 && range.highInclusive());
        }
        return true;
    }

    /** The smallest integer satisfying the low bound, or null without one. */
    static BigInteger smallestInteger(Match.Range r) {
        if (r.low() == null) {
            return null;
        }
        BigDecimal ceil = r.low().setScale(0, RoundingMode.CEILING);
        BigInteger v = ceil.toBigIntegerExact();
        return !r.lowInclusive() && ceil.compareTo(r.low()) == 0 ? v.add(BigInteger.ONE) : v;
    }

    /** The largest integer satisfying the high bound, or null without one. */
    static BigInteger largestInteger(Match.Range r) {
        if (r.high() == null) {
            return null;
        }
        BigDecimal floor = r.high().setScale(0, RoundingMode.FLOOR);
        BigInteger v = floor.toBigIntegerExact();
        return !r.highInclusive() && floor.compareTo(r.high()) == 0 ? v.subtract(BigInteger.ONE) : v;
    }
}
