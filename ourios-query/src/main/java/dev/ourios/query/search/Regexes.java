package dev.ourios.query.search;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Compiles the regexes of a query with RE2/J, whose matching time is linear in the text. RE2/J refuses what it
 * cannot run in linear time (backreferences, lookaround, possessive forms); this class also refuses regexes whose
 * compiled program would be large, estimating the size before compiling, since nested counted repetitions
 * ({@code (a{1000}){1000}}) would otherwise expand to millions of instructions while compiling.
 */
final class Regexes {
    private Regexes() {
    }

    /**
     * The compiled regex, or a syntax error at {@code column} (the regex's opening slash).
     *
     * @param codePoints the pattern's length in code points
     */
    static Pattern compile(String pattern, int codePoints, int column, SearchLimits limits)
            throws QuerySyntaxException {
        if (pattern.isEmpty()) {
            throw new QuerySyntaxException(column, "an empty regex");
        }
        if (codePoints > limits.maxRegexLength()) {
            throw new QuerySyntaxException(column, "regex longer than " + limits.maxRegexLength() + " characters");
        }
        if (estimatedSize(pattern, limits.maxRegexSize()) > limits.maxRegexSize()) {
            throw new QuerySyntaxException(column, "regex too large: its repetitions would compile to more than "
                    + limits.maxRegexSize() + " instructions");
        }
        Pattern p;
        try {
            p = Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            throw new QuerySyntaxException(column, "invalid regex (RE2 syntax, no backreferences or lookaround): "
                    + e.getMessage().replace("error parsing regexp: ", ""));
        }
        if (p.programSize() > limits.maxRegexSize()) {
            throw new QuerySyntaxException(column, "regex too large: it compiles to " + p.programSize()
                    + " instructions, more than " + limits.maxRegexSize());
        }
        return p;
    }

    /**
     * An upper estimate of the instructions {@code pattern} compiles to, saturating just above {@code cap}: every
     * atom counts one, a group the sum of its parts, and a counted repetition {@code {n,m}} multiplies what it
     * repeats by its largest count. Only the order of magnitude matters; the compiled size is checked after.
     */
    static long estimatedSize(String pattern, long cap) {
        Deque<Long> outer = new ArrayDeque<>();
        long current = 0;
        long lastAtom = 0;
        int i = 0;
        int n = pattern.length();
        while (i < n) {
            char c = pattern.charAt(i);
            long atom = 1;
            if (c == '\\') {
                if (i + 1 < n && pattern.charAt(i + 1) == 'Q') {
                    int end = pattern.indexOf("\\E", i + 2);
                    end = end < 0 ? n : end;
                    atom = Math.max(1, end - (i + 2));
                    i = end < n ? end + 2 : n;
                } else {
                    i = skipEscape(pattern, i);
                }
            } else if (c == '[') {
                i = skipClass(pattern, i);
            } else if (c == '(') {
                outer.push(current);
                current = 0;
                lastAtom = 0;
                i++;
                continue;
            } else if (c == ')' && !outer.isEmpty()) {
                atom = current;
                current = outer.pop();
                i++;
            } else if (c == '{') {
                int close = pattern.indexOf('}', i);
                long count = close < 0 ? -1 : repeatCount(pattern.substring(i + 1, close));
                if (count >= 0) {
                    long extra = saturatingMultiply(lastAtom, Math.max(0, count - 1), cap);
                    current = Math.min(cap + 1, current + extra);
                    lastAtom = saturatingMultiply(lastAtom, Math.max(1, count), cap);
                    i = close + 1;
                    continue;
                }
                i++;
            } else if (c == '*' || c == '+' || c == '?' || c == '|') {
                current = Math.min(cap + 1, current + 1);
                i++;
                continue;
            } else {
                i++;
            }
            current = Math.min(cap + 1, current + atom);
            lastAtom = atom;
        }
        while (!outer.isEmpty()) {
            current = Math.min(cap + 1, current + outer.pop());
        }
        return current;
    }

    /** The largest count of a repetition body {@code n}, {@code n,} or {@code n,m}; -1 if it is not one. */
    private static long repeatCount(String body) {
        int comma = body.indexOf(',');
        String low = comma < 0 ? body : body.substring(0, comma);
        String high = comma < 0 ? body : body.substring(comma + 1);
        if (!digits(low) || (!high.isEmpty() && !digits(high))) {
            return -1;
        }
        long lo = Long.parseLong(low);
        return high.isEmpty() ? lo + 1 : Math.max(lo, Long.parseLong(high));
    }

    private static boolean digits(String s) {
        if (s.isEmpty() || s.length() > 9) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** The index after an escape at {@code i}: {@code \x}, {@code \p{..}}, {@code \x{..}}. */
    private static int skipEscape(String p, int i) {
        if (i + 2 < p.length() && p.charAt(i + 2) == '{' && "pPx".indexOf(p.charAt(i + 1)) >= 0) {
            int close = p.indexOf('}', i + 3);
            return close < 0 ? p.length() : close + 1;
        }
        return Math.min(p.length(), i + 2);
    }

    /** The index after a character class starting at {@code i}. */
    private static int skipClass(String p, int i) {
        int j = i + 1;
        if (j < p.length() && p.charAt(j) == '^') {
            j++;
        }
        if (j < p.length() && p.charAt(j) == ']') {
            j++;
        }
        while (j < p.length()) {
            char c = p.charAt(j);
            if (c == '\\') {
                j += 2;
            } else if (c == '[' && j + 1 < p.length() && p.charAt(j + 1) == ':') {
                int close = p.indexOf(":]", j + 2);
                j = close < 0 ? j + 1 : close + 2;
            } else if (c == ']') {
                return j + 1;
            } else {
                j++;
            }
        }
        return p.length();
    }

    private static long saturatingMultiply(long a, long b, long cap) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return a > (cap + 1) / b ? cap + 1 : Math.min(cap + 1, a * b);
    }
}
