package dev.ourios.query.search;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The hand-written recursive-descent parser of docs/spec/query.md, section 1, over the query's code points. Its
 * recursion is bounded by {@link SearchLimits#maxDepth()} (every level it descends is a '(', NOT or '-' it counted),
 * so no input can overflow the stack; every fault is a {@link QuerySyntaxException} with the column where it is.
 */
final class Parser {
    private static final String FIELDS = "service, severity, trace_id, span_id, template_id, scope, body, "
            + "resource.<key>, attributes.<key>";

    private final int[] cp;
    private final SearchLimits limits;
    private final Terms terms;
    private int pos;
    private int depth;
    private int termCount;

    Parser(String text, SearchLimits limits) {
        this.cp = text.codePoints().toArray();
        this.limits = limits;
        this.terms = new Terms(limits);
    }

    Expr parse() throws QuerySyntaxException {
        if (cp.length > limits.maxLength()) {
            throw new QuerySyntaxException(limits.maxLength() + 1, "the query is longer than " + limits.maxLength()
                    + " characters");
        }
        skipWs();
        if (atEnd()) {
            return new Expr.All();
        }
        Expr e = parseOr(null);
        skipWs();
        if (!atEnd()) { // an expression stops only at the end or at a ')' it did not open
            throw new QuerySyntaxException(column(), "unexpected ')'");
        }
        return e;
    }

    /** {@code group}: the field of the field group being parsed, or null outside one. */
    private Expr parseOr(Field group) throws QuerySyntaxException {
        List<Expr> parts = new ArrayList<>();
        parts.add(parseAnd(group));
        while (true) {
            skipWs();
            if (!keywordAt("OR")) {
                return combine(parts, Expr.Or.class, Expr.Or::new);
            }
            pos += 2;
            skipWs();
            if (atEnd() || peek() == ')' || keywordAt("OR") || keywordAt("AND")) {
                throw new QuerySyntaxException(column(), "expected a term after OR");
            }
            parts.add(parseAnd(group));
        }
    }

    private Expr parseAnd(Field group) throws QuerySyntaxException {
        List<Expr> parts = new ArrayList<>();
        parts.add(parseUnary(group));
        while (true) {
            skipWs();
            if (atEnd() || peek() == ')' || keywordAt("OR")) {
                return combine(parts, Expr.And.class, Expr.And::new);
            }
            if (keywordAt("AND")) {
                pos += 3;
                skipWs();
                if (atEnd() || peek() == ')' || keywordAt("OR") || keywordAt("AND")) {
                    throw new QuerySyntaxException(column(), "expected a term after AND");
                }
            }
            parts.add(parseUnary(group)); // juxtaposition is AND
        }
    }

    private Expr parseUnary(Field group) throws QuerySyntaxException {
        skipWs();
        int start = column();
        if (keywordAt("NOT")) {
            pos += 3;
            skipWs();
            if (atEnd() || peek() == ')') {
                throw new QuerySyntaxException(column(), "expected a term after NOT");
            }
            enter(start);
            Expr inner = parseUnary(group);
            depth--;
            return new Expr.Not(inner);
        }
        if (!atEnd() && peek() == '-') {
            if (pos + 1 >= cp.length || isWs(cp[pos + 1]) || cp[pos + 1] == ')') {
                throw new QuerySyntaxException(start, "expected a term right after '-'");
            }
            pos++;
            enter(start);
            Expr inner = parseUnary(group);
            depth--;
            return new Expr.Not(inner);
        }
        if (keywordAt("AND") || keywordAt("OR")) {
            throw new QuerySyntaxException(start, "expected a term, found " + (keywordAt("AND") ? "AND" : "OR"));
        }
        if (atEnd()) {
            throw new QuerySyntaxException(start, "expected a term");
        }
        if (peek() == ')') {
            throw new QuerySyntaxException(start, "expected a term, found ')'");
        }
        if (peek() == '(') {
            return group(group);
        }
        return group == null ? topTerm() : value(group, true);
    }

    /** {@code ( … )} at the current position; {@code field}: the field its values belong to, or null. */
    private Expr group(Field field) throws QuerySyntaxException {
        int open = column();
        pos++;
        enter(open);
        Expr e = parseOr(field);
        skipWs();
        if (atEnd() || peek() != ')') {
            throw new QuerySyntaxException(column(), "expected ')' to close the '(' at column " + open);
        }
        pos++;
        depth--;
        return e;
    }

    /** A term outside a field group: a word, phrase or regex of the line, or {@code field:value}. */
    private Expr topTerm() throws QuerySyntaxException {
        int start = column();
        int c = peek();
        if (c == '"') {
            String text = phrase();
            countTerm(start);
            return new Expr.Term(Field.LINE, terms.phrase(Field.LINE, text, start));
        }
        if (c == '/') {
            return regex(Field.LINE);
        }
        String raw = raw();
        if (!atEnd() && peek() == ':') {
            if (raw.isEmpty()) {
                throw new QuerySyntaxException(start, "expected a field name before ':'");
            }
            Field field = field(raw, start);
            pos++;
            return value(field, false);
        }
        return word(null, raw, start);
    }

    /** A value of {@code field}: right after {@code field:}, or inside its group ({@code inGroup}). */
    private Expr value(Field field, boolean inGroup) throws QuerySyntaxException {
        int start = column();
        if (atEnd() || isWs(peek()) || peek() == ')') {
            throw new QuerySyntaxException(start, "expected a value after " + Terms.shown(field.name() + ":"));
        }
        int c = peek();
        if (c == '(') {
            return group(field);
        }
        if (c == '"') {
            String text = phrase();
            countTerm(start);
            return new Expr.Term(field, terms.phrase(field, text, start));
        }
        if (c == '/') {
            return regex(field);
        }
        if (c == '>' || c == '<') {
            return comparison(field);
        }
        String raw = raw();
        if (!atEnd() && peek() == ':') {
            if (inGroup) {
                throw new QuerySyntaxException(start, "a field group holds values only: a value of "
                        + Terms.shown(field.name()) + " cannot name a field");
            }
            throw new QuerySyntaxException(column(), "a second ':' in a term; escape it as '\\:' or quote the value");
        }
        return word(field, raw, start);
    }

    private Expr comparison(Field field) throws QuerySyntaxException {
        int opColumn = column();
        boolean greater = peek() == '>';
        pos++;
        boolean inclusive = !atEnd() && peek() == '=';
        if (inclusive) {
            pos++;
        }
        Terms.Op op = greater ? (inclusive ? Terms.Op.GE : Terms.Op.GT) : (inclusive ? Terms.Op.LE : Terms.Op.LT);
        int boundColumn = column();
        String bound = raw();
        if (bound.isEmpty()) {
            throw new QuerySyntaxException(boundColumn, "expected a number after '" + op.spelling + "'");
        }
        if (!atEnd() && !isWs(peek()) && peek() != ')' && peek() != '(') {
            throw new QuerySyntaxException(column(), "unexpected '" + Character.toString(peek()) + "' after "
                    + Terms.shown(bound));
        }
        countTerm(opColumn);
        return new Expr.Term(field, terms.compare(field, op, bound, opColumn, boundColumn));
    }

    /**
     * The word just read ({@code raw}, from {@code start}), with its trailing star if any; {@code field} is null for
     * a bare word of the line, where a lone star is every row rather than "has a line".
     */
    private Expr word(Field field, String raw, int start) throws QuerySyntaxException {
        boolean prefix = false;
        int starColumn = 0;
        if (!atEnd() && peek() == '*') {
            starColumn = column();
            pos++;
            if (!atEnd() && !isWs(peek()) && peek() != ')' && peek() != '(') {
                throw new QuerySyntaxException(starColumn, "a wildcard is allowed only at the end of a word");
            }
            prefix = true;
        } else if (!atEnd() && peek() == '"') {
            throw new QuerySyntaxException(column(), "a quote inside a word; escape it as '\\\"' or quote the "
                    + "whole text");
        }
        countTerm(start);
        if (raw.isEmpty()) { // a lone star
            return field == null ? new Expr.All() : new Expr.Term(field, new Match.Exists());
        }
        Field f = field == null ? Field.LINE : field;
        return new Expr.Term(f, terms.word(f, raw, start, prefix, starColumn));
    }

    private Expr regex(Field field) throws QuerySyntaxException {
        int start = column();
        pos++;
        StringBuilder pattern = new StringBuilder();
        int codePoints = 0;
        while (true) {
            if (atEnd()) {
                throw new QuerySyntaxException(start, "unterminated regex: the '/' at column " + start
                        + " has no closing '/'");
            }
            int c = peek();
            if (c == '/') {
                pos++;
                break;
            }
            if (c == '\\' && pos + 1 < cp.length) {
                if (cp[pos + 1] != '/') {
                    pattern.append('\\'); // every escape but '\/' belongs to the regex
                    codePoints++;
                }
                pattern.appendCodePoint(cp[pos + 1]);
                codePoints++;
                pos += 2;
                continue;
            }
            pattern.appendCodePoint(c);
            codePoints++;
            pos++;
        }
        countTerm(start);
        return new Expr.Term(field, terms.regex(field, pattern.toString(), codePoints, start));
    }

    /** A phrase's text, escapes resolved; the position is after its closing quote. */
    private String phrase() throws QuerySyntaxException {
        int start = column();
        pos++;
        StringBuilder text = new StringBuilder();
        while (true) {
            if (atEnd()) {
                throw new QuerySyntaxException(start, "unterminated phrase: the '\"' at column " + start
                        + " has no closing quote");
            }
            int c = peek();
            if (c == '"') {
                pos++;
                return text.toString();
            }
            if (c == '\\' && pos + 1 < cp.length) {
                text.appendCodePoint(cp[pos + 1]);
                pos += 2;
                continue;
            }
            text.appendCodePoint(c);
            pos++;
        }
    }

    /**
     * The word characters from the current position, escapes resolved: it stops at white space, a parenthesis, a
     * quote, a colon, a star or the end.
     */
    private String raw() throws QuerySyntaxException {
        StringBuilder text = new StringBuilder();
        while (!atEnd()) {
            int c = peek();
            if (c == '\\') {
                if (pos + 1 >= cp.length) {
                    throw new QuerySyntaxException(column(), "a backslash at the end escapes nothing");
                }
                text.appendCodePoint(cp[pos + 1]);
                pos += 2;
                continue;
            }
            if (isWs(c) || c == '(' || c == ')' || c == '"' || c == ':' || c == '*') {
                break;
            }
            text.appendCodePoint(c);
            pos++;
        }
        return text.toString();
    }

    private static Field field(String name, int column) throws QuerySyntaxException {
        switch (name) {
            case "service":
                return new Field(Field.Kind.SERVICE, "");
            case "severity":
                return new Field(Field.Kind.SEVERITY, "");
            case "trace_id":
                return new Field(Field.Kind.TRACE_ID, "");
            case "span_id":
                return new Field(Field.Kind.SPAN_ID, "");
            case "template_id":
                return new Field(Field.Kind.TEMPLATE_ID, "");
            case "scope":
                return new Field(Field.Kind.SCOPE, "");
            case "body":
                return Field.LINE;
            default:
                break;
        }
        for (Field.Kind kind : List.of(Field.Kind.RESOURCE, Field.Kind.ATTRIBUTES)) {
            if (name.startsWith(kind.spelling())) {
                String key = name.substring(kind.spelling().length());
                if (key.isEmpty()) {
                    throw new QuerySyntaxException(column, "expected an attribute key after '" + kind.spelling()
                            + "'");
                }
                return new Field(kind, key);
            }
        }
        throw new QuerySyntaxException(column, "unknown field " + Terms.shown(name) + " (fields: " + FIELDS
                + "; to search for a ':' write '\\:' or quote the text)");
    }

    private static Expr combine(List<Expr> parts, Class<? extends Expr> kind, Function<List<Expr>, Expr> make) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        List<Expr> flat = new ArrayList<>();
        for (Expr p : parts) {
            if (kind.isInstance(p)) {
                flat.addAll(p instanceof Expr.And a ? a.parts() : ((Expr.Or) p).parts());
            } else {
                flat.add(p);
            }
        }
        return make.apply(flat);
    }

    private void enter(int column) throws QuerySyntaxException {
        if (++depth > limits.maxDepth()) {
            throw new QuerySyntaxException(column, "nesting deeper than " + limits.maxDepth()
                    + " levels of parentheses, NOT and '-'");
        }
    }

    private void countTerm(int column) throws QuerySyntaxException {
        if (++termCount > limits.maxTerms()) {
            throw new QuerySyntaxException(column, "more than " + limits.maxTerms() + " terms");
        }
    }

    /** Whether the keyword starts here as a whole word (followed by white space, a parenthesis, a quote or the end). */
    private boolean keywordAt(String keyword) {
        int n = keyword.length();
        if (pos + n > cp.length) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (cp[pos + i] != keyword.charAt(i)) {
                return false;
            }
        }
        if (pos + n == cp.length) {
            return true;
        }
        int next = cp[pos + n];
        return isWs(next) || next == '(' || next == ')' || next == '"';
    }

    private void skipWs() {
        while (!atEnd() && isWs(peek())) {
            pos++;
        }
    }

    private static boolean isWs(int c) {
        return Character.isWhitespace(c);
    }

    private boolean atEnd() {
        return pos >= cp.length;
    }

    private int peek() {
        return cp[pos];
    }

    private int column() {
        return pos + 1;
    }
}
