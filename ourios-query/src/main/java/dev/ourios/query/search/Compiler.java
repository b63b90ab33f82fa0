package dev.ourios.query.search;

import com.google.re2j.Pattern;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.KeyValue;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Compiles a parsed query into the exact row test (docs/spec/query.md, sections 4 and 5). The parser has checked
 * every term, so compiling cannot fail.
 */
final class Compiler {
    /** A condition on one row. Implementations are immutable and shared by scan threads. */
    @FunctionalInterface
    interface RowTest {
        boolean test(SearchRow row);
    }

    private final SearchLimits limits;

    Compiler(SearchLimits limits) {
        this.limits = limits;
    }

    RowTest compile(Expr e) {
        if (e instanceof Expr.All) {
            return row -> true;
        }
        if (e instanceof Expr.Not n) {
            RowTest inner = compile(n.inner());
            return row -> !inner.test(row);
        }
        if (e instanceof Expr.And a) {
            RowTest[] parts = a.parts().stream().map(this::compile).toArray(RowTest[]::new);
            return row -> {
                for (RowTest p : parts) {
                    if (!p.test(row)) {
                        return false;
                    }
                }
                return true;
            };
        }
        if (e instanceof Expr.Or o) {
            RowTest[] parts = o.parts().stream().map(this::compile).toArray(RowTest[]::new);
            return row -> {
                for (RowTest p : parts) {
                    if (p.test(row)) {
                        return true;
                    }
                }
                return false;
            };
        }
        Expr.Term t = (Expr.Term) e;
        return term(t.field(), t.match());
    }

    private RowTest term(Field field, Match match) {
        switch (field.kind()) {
            case LINE:
                return line(match);
            case SERVICE:
                return string(SearchRow::service, match);
            case SCOPE:
                return string(row -> row.record().scopeName(), match);
            case TRACE_ID:
                return string(SearchRow::traceIdHex, match);
            case SPAN_ID:
                return string(SearchRow::spanIdHex, match);
            case SEVERITY: {
                if (match instanceof Match.Exists) {
                    return row -> row.record().severityNumber() != 0;
                }
                NumericBounds b = new NumericBounds((Match.Range) match);
                return row -> b.test(row.record().severityNumber());
            }
            case TEMPLATE_ID: {
                if (match instanceof Match.Exists) {
                    return row -> row.record().templateId() != 0;
                }
                NumericBounds b = new NumericBounds((Match.Range) match);
                return row -> b.testUnsigned(row.record().templateId());
            }
            case RESOURCE:
                return attribute(SearchRow::resource, row -> row.record().resourceAttributes(), field.key(), match);
            case ATTRIBUTES:
                return attribute(SearchRow::attributes, row -> row.record().attributes(), field.key(), match);
            default:
                throw new IllegalStateException("unknown field kind " + field.kind());
        }
    }

    private RowTest line(Match match) {
        if (match instanceof Match.Tokens t) {
            String[] want = t.tokens().toArray(String[]::new);
            boolean prefixLast = t.prefixLast();
            LineSubstrings substrings = LineSubstrings.of(t.tokens());
            if (substrings == null) {
                return row -> holds(row.tokens(), want, prefixLast);
            }
            // Most lines lack a rare word even as a substring: those are decided on their bytes, not tokenized.
            return row -> {
                byte[] line = row.lineBytes();
                return line != null && !substrings.rulesOut(line) && holds(row.tokens(), want, prefixLast);
            };
        }
        if (match instanceof Match.Regex r) {
            Pattern p = pattern(r);
            return row -> row.line() != null && p.matcher(row.line()).find();
        }
        if (match instanceof Match.Exists) {
            return row -> row.line() != null;
        }
        throw new IllegalStateException("the line takes no " + match);
    }

    /** Whether {@code tokens} holds {@code want} consecutively, the last as a prefix if asked. */
    private static boolean holds(List<String> tokens, String[] want, boolean prefixLast) {
        int last = want.length - 1;
        outer:
        for (int i = 0, end = tokens.size() - want.length; i <= end; i++) {
            for (int j = 0; j <= last; j++) {
                String token = tokens.get(i + j);
                boolean ok = j == last && prefixLast ? token.startsWith(want[j]) : token.equals(want[j]);
                if (!ok) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private RowTest string(Function<SearchRow, String> read, Match match) {
        if (match instanceof Match.Equals eq) {
            String v = eq.value();
            return row -> v.equals(read.apply(row));
        }
        if (match instanceof Match.Prefix pre) {
            String v = pre.value();
            return row -> {
                String s = read.apply(row);
                return s != null && s.startsWith(v);
            };
        }
        if (match instanceof Match.Regex r) {
            Pattern p = pattern(r);
            return row -> {
                String s = read.apply(row);
                return s != null && p.matcher(s).find();
            };
        }
        if (match instanceof Match.Exists) {
            return row -> read.apply(row) != null;
        }
        throw new IllegalStateException("a string field takes no " + match);
    }

    private RowTest attribute(Function<SearchRow, List<KeyValue>> read, Function<SearchRow, String> json, String key,
            Match match) {
        if (match instanceof Match.Exists) {
            return row -> {
                for (KeyValue kv : read.apply(row)) {
                    if (kv.key().equals(key)) {
                        return true;
                    }
                }
                return false;
            };
        }
        ValueTest test = valueTest(match);
        if (match instanceof Match.Range range) {
            // Decided on the JSON text where it is canonical and escape-free (most rows lack the key outright).
            AttributeRangeScan scan = new AttributeRangeScan(key, new NumericBounds(range));
            return row -> {
                int known = scan.decide(json.apply(row));
                if (known != AttributeRangeScan.UNKNOWN) {
                    return known == AttributeRangeScan.YES;
                }
                for (KeyValue kv : read.apply(row)) {
                    if (kv.key().equals(key) && anyValue(kv.value(), test)) {
                        return true;
                    }
                }
                return false;
            };
        }
        Optional<String> literal = stringOnly(match);
        return row -> {
            if (literal.isPresent() && cannotHold(json.apply(row), key, literal.get())) {
                return false;
            }
            for (KeyValue kv : read.apply(row)) {
                if (kv.key().equals(key) && anyValue(kv.value(), test)) {
                    return true;
                }
            }
            return false;
        };
    }

    /**
     * The value an equality can only match as a string (quoted, or neither a number nor a boolean), so that its
     * characters stand literally in the JSON of any row it matches; empty for every other match.
     */
    private Optional<String> stringOnly(Match match) {
        if (!(match instanceof Match.Equals eq)) {
            return Optional.empty();
        }
        String text = eq.value();
        boolean typed = !eq.quoted() && (text.equals("true") || text.equals("false") || number(text).isPresent());
        return typed || text.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    /**
     * True when the attributes JSON cannot hold {@code key} with the string {@code value}, decided without parsing:
     * JSON without a single backslash has no escapes, so each of its strings stands in it literally, and a key or
     * value absent from its text is absent from it. JSON with any escape is left to the parser.
     */
    private static boolean cannotHold(String json, String key, String value) {
        return json != null && json.indexOf('\\') < 0 && (!json.contains(value) || !json.contains(key));
    }

    /** A test of one attribute value (an array's elements are tested one by one). */
    @FunctionalInterface
    private interface ValueTest {
        boolean test(AnyValue v);
    }

    /**
     * Whether {@code v} or, for an array, any element (at any depth) passes. The depth is that of the stored JSON,
     * which its parser bounds; the walk keeps an explicit stack all the same.
     */
    private static boolean anyValue(AnyValue v, ValueTest test) {
        if (!(v instanceof AnyValue.ArrayValue)) {
            return test.test(v);
        }
        List<AnyValue> pending = new ArrayList<>();
        pending.add(v);
        while (!pending.isEmpty()) {
            AnyValue next = pending.remove(pending.size() - 1);
            if (next instanceof AnyValue.ArrayValue a) {
                pending.addAll(a.values());
            } else if (test.test(next)) {
                return true;
            }
        }
        return false;
    }

    private ValueTest valueTest(Match match) {
        if (match instanceof Match.Equals eq) {
            String text = eq.value();
            if (eq.quoted()) {
                return v -> v instanceof AnyValue.StringValue s && s.value().equals(text);
            }
            Optional<NumericBounds> number = number(text).map(n -> new NumericBounds(Match.Range.exactly(n)));
            Boolean bool = text.equals("true") ? Boolean.TRUE : text.equals("false") ? Boolean.FALSE : null;
            return v -> {
                if (v instanceof AnyValue.StringValue s) {
                    return s.value().equals(text);
                }
                if (v instanceof AnyValue.IntValue i) {
                    return number.isPresent() && number.get().test(i.value());
                }
                if (v instanceof AnyValue.DoubleValue d) {
                    return number.isPresent() && number.get().test(d.value());
                }
                return v instanceof AnyValue.BoolValue b && bool != null && b.value() == bool;
            };
        }
        if (match instanceof Match.Prefix pre) {
            String p = pre.value();
            return v -> {
                String s = text(v);
                return s != null && s.startsWith(p);
            };
        }
        if (match instanceof Match.Regex r) {
            Pattern p = pattern(r);
            return v -> {
                String s = text(v);
                return s != null && p.matcher(s).find();
            };
        }
        if (match instanceof Match.Range range) {
            NumericBounds b = new NumericBounds(range);
            return v -> v instanceof AnyValue.IntValue i ? b.test(i.value())
                    : v instanceof AnyValue.DoubleValue d && b.test(d.value());
        }
        throw new IllegalStateException("an attribute takes no " + match);
    }

    /** The text prefixes and regexes see: a string, an int's decimal digits, true/false; null for the rest. */
    private static String text(AnyValue v) {
        if (v instanceof AnyValue.StringValue s) {
            return s.value();
        }
        if (v instanceof AnyValue.IntValue i) {
            return Long.toString(i.value());
        }
        if (v instanceof AnyValue.BoolValue b) {
            return Boolean.toString(b.value());
        }
        return null;
    }

    private Optional<BigDecimal> number(String text) {
        try {
            return new Terms(limits).number(text, 1);
        } catch (QuerySyntaxException e) {
            return Optional.empty(); // too long to be a number: it compares as a string only
        }
    }

    private Pattern pattern(Match.Regex r) {
        return Pattern.compile(r.pattern()); // checked by the parser (Regexes.compile)
    }
}
