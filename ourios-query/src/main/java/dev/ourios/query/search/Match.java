package dev.ourios.query.search;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/** How a term compares a field's value (docs/spec/query.md, sections 4 and 5). */
public sealed interface Match {

    /**
     * The line holds these tokens consecutively (one token: a word), the last as a prefix if {@code prefixLast}.
     * Only on {@link Field.Kind#LINE}.
     */
    record Tokens(List<String> tokens, boolean prefixLast) implements Match {
        public Tokens {
            tokens = List.copyOf(tokens);
            if (tokens.isEmpty()) {
                throw new IllegalArgumentException("no tokens");
            }
        }
    }

    /**
     * Equal to {@code value}: a string, or (hex ids) the lower-case hex. For attributes an unquoted value also
     * compares with numeric and boolean values; a quoted one only with strings.
     */
    record Equals(String value, boolean quoted) implements Match {
        public Equals {
            Objects.requireNonNull(value, "value");
        }
    }

    /** Starts with {@code value}. */
    record Prefix(String value) implements Match {
        public Prefix {
            Objects.requireNonNull(value, "value");
        }
    }

    /** An RE2 regex that finds a match anywhere in the value. */
    record Regex(String pattern) implements Match {
        public Regex {
            Objects.requireNonNull(pattern, "pattern");
        }
    }

    /**
     * A numeric value within the bounds; a null bound is open. An equality on a numeric field ({@code severity:9})
     * is the range of that one value.
     */
    record Range(BigDecimal low, boolean lowInclusive, BigDecimal high, boolean highInclusive) implements Match {
        public static Range exactly(BigDecimal v) {
            return new Range(v, true, v, true);
        }
    }

    /** The field has a value. */
    record Exists() implements Match {
    }
}
