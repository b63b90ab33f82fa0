package dev.ourios.query.search;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Turns what the parser read after {@code field:} into a {@link Match}, refusing what the field does not take
 * (docs/spec/query.md, section 5) with the column of the fault. Every check a term needs happens here, so a parsed
 * query always compiles.
 */
final class Terms {
    /** A decimal number: at most three exponent digits keep every bound a few hundred digits at most. */
    private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]{1,3})?");
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]*");
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final List<String> SEVERITY_NAMES = List.of("trace", "debug", "info", "warn", "error", "fatal");

    /** A comparison operator of {@code field:>N} and its kin. */
    enum Op {
        GT(">"), GE(">="), LT("<"), LE("<=");

        final String spelling;

        Op(String spelling) {
            this.spelling = spelling;
        }
    }

    private static final int SHOWN = 40;

    private final SearchLimits limits;

    Terms(SearchLimits limits) {
        this.limits = limits;
    }

    /** An unquoted word ({@code prefix}: it ended in a star, at {@code starColumn}). */
    Match word(Field field, String text, int column, boolean prefix, int starColumn) throws QuerySyntaxException {
        switch (field.kind()) {
            case LINE:
                return tokens(text, column, prefix, starColumn);
            case SERVICE, SCOPE, RESOURCE, ATTRIBUTES:
                return prefix ? new Match.Prefix(text) : new Match.Equals(text, false);
            case SEVERITY:
                noPrefix(field, prefix, column);
                return severity(text, column);
            case TRACE_ID:
                return hexId(text, 32, "a trace id is 32 hex digits", column, prefix);
            case SPAN_ID:
                return hexId(text, 16, "a span id is 16 hex digits", column, prefix);
            case TEMPLATE_ID:
                noPrefix(field, prefix, column);
                return Match.Range.exactly(new BigDecimal(templateId(text, column)));
            default:
                throw new IllegalStateException("unknown field kind " + field.kind());
        }
    }

    /** A quoted phrase. */
    Match phrase(Field field, String text, int column) throws QuerySyntaxException {
        switch (field.kind()) {
            case LINE:
                return tokens(text, column, false, column);
            case SERVICE, SCOPE, RESOURCE, ATTRIBUTES:
                return new Match.Equals(text, true);
            default:
                return word(field, text, column, false, column);
        }
    }

    /** {@code /pattern/} at {@code column}; {@code codePoints} is the pattern's length. */
    Match regex(Field field, String pattern, int codePoints, int column) throws QuerySyntaxException {
        switch (field.kind()) {
            case SEVERITY, TEMPLATE_ID:
                throw new QuerySyntaxException(column, field.name() + " takes no regex");
            default:
                Regexes.compile(pattern, codePoints, column, limits);
                return new Match.Regex(pattern);
        }
    }

    /** {@code field:>N} and its kin; {@code opColumn} is the operator's, {@code column} the bound's. */
    Match compare(Field field, Op op, String bound, int opColumn, int column) throws QuerySyntaxException {
        BigDecimal n;
        switch (field.kind()) {
            case SEVERITY: {
                Match.Range r = severity(bound, column);
                // A name stands for its range: > and <= go by its top, >= and < by its bottom.
                n = op == Op.GT || op == Op.LE ? r.high() : r.low();
                break;
            }
            case TEMPLATE_ID:
                n = new BigDecimal(templateId(bound, column));
                break;
            case RESOURCE, ATTRIBUTES:
                n = number(bound, column).orElseThrow(() -> new QuerySyntaxException(column,
                        "expected a number after '" + op.spelling + "', found " + shown(bound)));
                break;
            default:
                throw new QuerySyntaxException(opColumn, field.name() + " takes no range");
        }
        return switch (op) {
            case GT -> new Match.Range(n, false, null, false);
            case GE -> new Match.Range(n, true, null, false);
            case LT -> new Match.Range(null, false, n, false);
            case LE -> new Match.Range(null, false, n, true);
        };
    }

    /** A decimal number within the limits, or empty if {@code text} is not one. */
    Optional<BigDecimal> number(String text, int column) throws QuerySyntaxException {
        if (!NUMBER.matcher(text).matches()) {
            return Optional.empty();
        }
        if (text.length() > limits.maxNumberLength()) {
            throw new QuerySyntaxException(column, "a number longer than " + limits.maxNumberLength()
                    + " characters");
        }
        return Optional.of(new BigDecimal(text));
    }

    private Match tokens(String text, int column, boolean prefix, int starColumn) throws QuerySyntaxException {
        List<String> tokens = Tokenizer.tokens(text);
        if (tokens.isEmpty()) {
            throw new QuerySyntaxException(column, "the text " + shown(text) + " has no letters or digits to search for");
        }
        if (prefix && !Tokenizer.isTokenChar(text.codePointBefore(text.length()))) {
            throw new QuerySyntaxException(starColumn, "a prefix must end in a letter, digit or underscore");
        }
        return new Match.Tokens(tokens, prefix);
    }

    private Match.Range severity(String text, int column) throws QuerySyntaxException {
        int band = SEVERITY_NAMES.indexOf(text.toLowerCase(Locale.ROOT));
        if (band >= 0) {
            return new Match.Range(BigDecimal.valueOf(band * 4L + 1), true, BigDecimal.valueOf(band * 4L + 4), true);
        }
        if (text.length() <= 3 && !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            int n = Integer.parseInt(text);
            if (n <= 255) {
                return Match.Range.exactly(BigDecimal.valueOf(n));
            }
        }
        if (!text.isEmpty() && Character.isLetter(text.codePointAt(0))) {
            throw new QuerySyntaxException(column, "unknown severity " + shown(text)
                    + " (names: trace, debug, info, warn, error, fatal)");
        }
        throw new QuerySyntaxException(column, "severity is a number 0..255 or a name (trace, debug, info, warn, "
                + "error, fatal), found " + shown(text));
    }

    private static BigInteger templateId(String text, int column) throws QuerySyntaxException {
        if (text.isEmpty() || text.length() > 20 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new QuerySyntaxException(column, "template_id is an unsigned 64-bit integer, found " + shown(text));
        }
        BigInteger v = new BigInteger(text);
        if (v.compareTo(U64_MAX) > 0) {
            throw new QuerySyntaxException(column, "template_id is an unsigned 64-bit integer, found " + shown(text));
        }
        return v;
    }

    private static Match hexId(String text, int digits, String what, int column, boolean prefix)
            throws QuerySyntaxException {
        boolean hex = HEX.matcher(text).matches();
        if (prefix ? !hex || text.length() > digits : !hex || text.length() != digits) {
            throw new QuerySyntaxException(column, what + ", found " + shown(text));
        }
        String lower = text.toLowerCase(Locale.ROOT);
        return prefix ? new Match.Prefix(lower) : new Match.Equals(lower, false);
    }

    /** {@code text} as an error message quotes it: at most {@value #SHOWN} code points, so a message stays short. */
    static String shown(String text) {
        if (text.codePointCount(0, text.length()) <= SHOWN) {
            return "'" + text + "'";
        }
        return "'" + text.substring(0, text.offsetByCodePoints(0, SHOWN)) + "…'";
    }

    private static void noPrefix(Field field, boolean prefix, int column) throws QuerySyntaxException {
        if (prefix) {
            throw new QuerySyntaxException(column, field.name() + " takes no prefix");
        }
    }
}
