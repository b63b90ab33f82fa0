package dev.ourios.query.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.BodyKind;
import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shapes the parser gives (docs/spec/query.md, sections 1 to 3): precedence, grouping, escapes, keywords. */
class SearchParserTest {

    private static Expr parse(String q) throws QuerySyntaxException {
        return SearchQuery.parse(q).expression();
    }

    private static Expr word(String... tokens) {
        return new Expr.Term(Field.LINE, new Match.Tokens(List.of(tokens), false));
    }

    private static Expr service(String v) {
        return new Expr.Term(new Field(Field.Kind.SERVICE, ""), new Match.Equals(v, false));
    }

    @Test
    void not_binds_tighter_than_and_tighter_than_or() throws Exception {
        Expr a = word("a");
        Expr b = word("b");
        Expr c = word("c");
        assertEquals(new Expr.Or(List.of(new Expr.And(List.of(a, b)), c)), parse("a b OR c"));
        assertEquals(new Expr.Or(List.of(a, new Expr.And(List.of(b, c)))), parse("a OR b AND c"));
        assertEquals(new Expr.And(List.of(new Expr.Not(a), b)), parse("NOT a b"));
        assertEquals(new Expr.And(List.of(new Expr.Not(a), b)), parse("-a AND b"));
        assertEquals(new Expr.And(List.of(a, new Expr.Or(List.of(b, c)))), parse("a (b OR c)"));
        assertEquals(new Expr.And(List.of(a, b, c)), parse("(a b) c"), "nested ANDs are flattened");
        assertEquals(new Expr.Not(new Expr.And(List.of(a, b))), parse("NOT(a b)"));
        assertEquals(parse("a AND b"), parse("  a\tb\n"));
    }

    @Test
    void keywords_are_capitals_and_whole_words() throws Exception {
        assertEquals(new Expr.And(List.of(word("a"), word("and"), word("b"))), parse("a and b"));
        assertEquals(new Expr.And(List.of(word("a"), word("android"))), parse("a ANDROID"));
        assertEquals(new Expr.And(List.of(word("a"), word("and"))), parse("a \\AND"));
        assertEquals(new Expr.And(List.of(word("a"), word("or"))), parse("a \"OR\""));
    }

    @Test
    void escapes_make_characters_literal() throws Exception {
        assertEquals(word("order", "8812"), parse("order\\:8812"));
        assertEquals(word("a", "b"), parse("a\\ b"));
        assertEquals(word("x"), parse("\\-x"), "an escaped '-' is not NOT");
        assertEquals(new Expr.Term(new Field(Field.Kind.SERVICE, ""), new Match.Equals("a \"b\" (c) d*", true)),
                parse("service:\"a \\\"b\\\" (c) d*\""));
        assertEquals(new Expr.Term(new Field(Field.Kind.SERVICE, ""), new Match.Equals("a:b", false)),
                parse("service:a\\:b"));
        assertEquals(new Expr.Term(new Field(Field.Kind.ATTRIBUTES, "odd key"), new Match.Exists()),
                parse("attributes.odd\\ key:*"));
        assertEquals(new Expr.Term(Field.LINE, new Match.Regex("\\d+/v1")), parse("/\\d+\\/v1/"));
        assertEquals(new Expr.Term(new Field(Field.Kind.ATTRIBUTES, "offset"),
                new Match.Equals("-1", false)), parse("attributes.offset:-1"), "'-' after field: is the value's");
    }

    @Test
    void field_groups_apply_the_field_to_every_value() throws Exception {
        assertEquals(new Expr.Or(List.of(service("cart"), new Expr.Not(service("ad")))),
                parse("service:(cart OR -ad)"));
        assertEquals(new Expr.And(List.of(service("cart"), service("ad"))), parse("service:(cart ad)"));
        assertEquals(new Expr.Term(new Field(Field.Kind.SEVERITY, ""), new Match.Range(BigDecimal.valueOf(13), true,
                null, false)), parse("severity:(>=warn)"));
    }

    @Test
    void ids_and_numbers_are_checked_and_normalised() throws Exception {
        LogRecord r = LogRecord.builder("t").spanId(Bytes.fromHex("00f067aa0ba902b7"))
                .traceId(Bytes.fromHex("4bf92f3577b34da6a3ce929d0e0e4736")).bodyKind(BodyKind.STRING)
                .body("x".getBytes(StandardCharsets.UTF_8)).build();
        assertTrue(SearchQuery.parse("span_id:00F067AA0BA902B7").test(r));
        assertTrue(SearchQuery.parse("span_id:00f0*").test(r));
        assertTrue(SearchQuery.parse("span_id:/^00f0/ trace_id:4bf92f3577b34da6a3ce929d0e0e4736").test(r));
        assertFalse(SearchQuery.parse("span_id:00f067aa0ba902b8").test(r));
        assertTrue(SearchQuery.parse("span_id:* trace_id:* -template_id:*").test(r));
        assertEquals(9, assertThrows(QuerySyntaxException.class, () -> SearchQuery.parse("span_id:0g*")).column());
        assertEquals(13, assertThrows(QuerySyntaxException.class,
                () -> SearchQuery.parse("template_id:18446744073709551616")).column());
        assertEquals(10, assertThrows(QuerySyntaxException.class, () -> SearchQuery.parse("severity:/x/")).column());
    }

    @Test
    void a_syntax_error_names_its_column_in_the_message() {
        QuerySyntaxException e = assertThrows(QuerySyntaxException.class, () -> SearchQuery.parse("service:(cart"));
        assertEquals(14, e.column());
        assertEquals("column 14: expected ')' to close the '(' at column 9", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new QuerySyntaxException(0, "x"));
    }
}
