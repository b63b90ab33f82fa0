package dev.ourios.query.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The limits of docs/spec/query.md, section 7: hostile input (deep nesting, long chains of NOT, many terms, long
 * queries, exploding regexes) is refused with a column, quickly and without a stack overflow.
 */
class SearchLimitsTest {

    private static QuerySyntaxException refused(String query) {
        return assertThrows(QuerySyntaxException.class, () -> SearchQuery.parse(query), query.length() > 60
                ? query.substring(0, 60) + "…" : query);
    }

    @Test
    void nesting_is_bounded_and_never_overflows_the_stack() throws Exception {
        SearchQuery.parse("(".repeat(32) + "a" + ")".repeat(32));
        assertEquals(33, refused("(".repeat(33) + "a" + ")".repeat(33)).column());
        assertEquals(33, refused("(".repeat(4000)).column());
        assertEquals(33, refused("-".repeat(4000) + "a").column());
        assertEquals(129, refused("NOT ".repeat(1000) + "a").column()); // the 33rd NOT starts at 4 * 32 + 1
        assertEquals(41, refused("service:" + "(".repeat(40)).column()); // service:( is level 1, at column 9
        // Beyond the length limit too: the depth limit alone keeps the recursion shallow.
        SearchLimits long_ = new SearchLimits(10_000_000, 32, 128, 256, 10_000, 64);
        assertEquals(33, assertThrows(QuerySyntaxException.class,
                () -> SearchQuery.parse("(".repeat(5_000_000), long_)).column());
        assertEquals(33, assertThrows(QuerySyntaxException.class,
                () -> SearchQuery.parse("-".repeat(5_000_000) + "a", long_)).column());
        assertEquals(4097, refused("(".repeat(1_000_000)).column());
        SearchQuery.parse("NOT ".repeat(32) + "a");
    }

    @Test
    void terms_are_bounded() throws Exception {
        SearchQuery.parse("a ".repeat(128));
        QuerySyntaxException e = refused("a ".repeat(129));
        assertEquals(2 * 128 + 1, e.column());
        assertTrue(e.reason().contains("more than 128 terms"), e.reason());
    }

    @Test
    void the_query_length_is_bounded() throws Exception {
        SearchQuery.parse("x".repeat(4096));
        QuerySyntaxException e = refused("x".repeat(4097));
        assertEquals(4097, e.column());
        // Columns count code points, not UTF-16 units: U+1D400 is one letter of two chars.
        assertEquals(4097, refused("\ud835\udc00".repeat(4097)).column());
        SearchQuery.parse("\ud835\udc00".repeat(4096));
        QuerySyntaxException e2 = refused("\ud835\udc00\ud835\udc00 ti*me");
        assertEquals(6, e2.column());
        assertTrue(refused("\ud83d\ude00".repeat(4000)).getMessage().length() < 200, "a message is bounded");
    }

    @Test
    void regexes_that_cannot_run_in_linear_time_or_would_be_large_are_refused() throws Exception {
        for (String q : List.of("/(a)\\1/", "/(?=a)b/", "/(?!a)b/", "/(?<=a)b/", "/(?<!a)b/", "/a*+/", "/a++/",
                "/(?>a)/", "/x{1001}/", "/(a{1000}){1000}/", "/((a{100}){100}){100}/", "/(((a{10}){10}){10}){10}/",
                "/[a-z]{1000}[0-9]{1000}[A-Z]{1000}(x{1000}){9}/", "body:/" + "a".repeat(257) + "/")) {
            QuerySyntaxException e = refused(q);
            assertEquals(q.indexOf('/') + 1, e.column(), q);
            assertTrue(e.reason().startsWith("invalid regex") || e.reason().startsWith("regex "), e.reason());
        }
        SearchQuery.parse("/a{1000}/");
        SearchQuery.parse("/(?i)^(GET|POST) \\/api\\/v[0-9]+\\/[a-z_]+\\?id=\\w{10}$/");
        SearchQuery.parse("body:/" + "a".repeat(256) + "/");
    }

    @Test
    void a_regex_runs_in_time_linear_in_the_line() throws Exception {
        // (a+)+$ takes exponential time in a backtracking engine on "aaaa…b"; RE2 answers at once.
        SearchQuery s = SearchQuery.parse("/(a+)+$/ OR /(a|aa)+c/");
        String line = "a".repeat(100_000) + "b";
        dev.ourios.core.LogRecord r = dev.ourios.core.LogRecord.builder("t").bodyKind(0)
                .body(line.getBytes(java.nio.charset.StandardCharsets.UTF_8)).build();
        long start = System.nanoTime();
        assertFalse(s.test(r), "neither regex matches a line of a's ending in b");
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "linear time");
        assertTrue(SearchQuery.parse("/(a+)+b$/").test(r));
    }

    @Test
    void numbers_are_bounded() throws Exception {
        assertTrue(refused("attributes.n:>=1" + "0".repeat(64)).reason().contains("longer than 64"));
        assertEquals(16, refused("attributes.n:>=1" + "0".repeat(64)).column());
        assertEquals(16, refused("attributes.n:>=1e9999").column());
        SearchQuery.parse("attributes.n:>=1e999 attributes.n:<-1e-999");
    }
}
