package dev.ourios.query.search;

import dev.ourios.parquet.index.IndexCondition;
import dev.ourios.parquet.index.TokenKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a search requires of a row group's token index (docs/spec/query.md, "The token index"): the condition on index
 * keys that every matching row satisfies, so that a group whose filters rule it out holds no match.
 * <ul>
 * <li>a word or phrase of the line: every one of its tokens (a prefix's last token is left out: a filter holds
 * whole tokens only);</li>
 * <li>{@code attributes.K:V} and {@code resource.K:V}: the string value V under K, unless the term also matches
 * numbers or booleans (an unquoted number, {@code true} or {@code false}), which the index does not hold;</li>
 * <li>AND: every part the index can decide; OR: every branch must be decidable, and one must hold;</li>
 * <li>NOT, regexes, ranges, existence and every other field: nothing (the rows are read).</li>
 * </ul>
 */
final class IndexTerms {
    /** Any value {@code Terms.number} could read as a number (a superset: a wider test only prunes less). */
    private static final Pattern NUMERIC = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

    private IndexTerms() {
    }

    static IndexCondition of(Expr e) {
        if (e instanceof Expr.And a) {
            return IndexCondition.and(parts(a.parts()));
        }
        if (e instanceof Expr.Or o) {
            return IndexCondition.or(parts(o.parts()));
        }
        if (e instanceof Expr.Term t) {
            return term(t.field(), t.match());
        }
        return IndexCondition.ANY; // All, Not
    }

    private static List<IndexCondition> parts(List<Expr> parts) {
        List<IndexCondition> out = new ArrayList<>(parts.size());
        for (Expr p : parts) {
            out.add(of(p));
        }
        return out;
    }

    private static IndexCondition term(Field field, Match match) {
        switch (field.kind()) {
            case LINE:
                if (match instanceof Match.Tokens t) {
                    int whole = t.prefixLast() ? t.tokens().size() - 1 : t.tokens().size();
                    if (whole == 0) {
                        return IndexCondition.ANY;
                    }
                    long[] keys = new long[whole];
                    for (int i = 0; i < whole; i++) {
                        keys[i] = TokenKeys.line(t.tokens().get(i));
                    }
                    return new IndexCondition.AllKeys(keys);
                }
                return IndexCondition.ANY;
            case ATTRIBUTES, RESOURCE:
                if (match instanceof Match.Equals eq && (eq.quoted() || stringOnly(eq.value()))) {
                    long key = field.kind() == Field.Kind.ATTRIBUTES ? TokenKeys.attribute(field.key(), eq.value())
                            : TokenKeys.resource(field.key(), eq.value());
                    return new IndexCondition.AllKeys(new long[] {key});
                }
                return IndexCondition.ANY;
            default:
                return IndexCondition.ANY;
        }
    }

    /** Whether an unquoted value compares with string values only (not a number, not a boolean). */
    private static boolean stringOnly(String value) {
        return !value.equals("true") && !value.equals("false") && !NUMERIC.matcher(value).matches();
    }
}
