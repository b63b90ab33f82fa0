package dev.ourios.query.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ourios.core.LogRecord;
import dev.ourios.query.Query;
import dev.ourios.testkit.Fuzzer;
import dev.ourios.testkit.Mutator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded fuzzing of the search parser and compiler: random mutations (bit flips, truncations, insertions, splices,
 * duplications) of valid queries, the examples of docs/spec/query.md among them. Every case is a query that parses,
 * compiles and decides the example rows without throwing, or a {@link QuerySyntaxException} whose column lies inside
 * the query or just past its end: never another exception, a stack overflow, a hang or an out-of-memory error.
 *
 * <p>{@code -Dourios.fuzz.cases=N} runs N cases (default 20000); {@code -Dourios.fuzz.seed=S} replays a run.
 */
@Timeout(300)
class SearchParserFuzzTest {
    private static final List<String> EXTRA = List.of(
            "((((refused))))", "NOT (a OR -b) AND c", "service:(cart OR -\"check out\" OR /^f.*d$/)",
            "a\\:b \\\"c\\\" \\*d \\\\e", "\"x \\\" y\"", "/a\\/b[0-9]{2,3}(?i)c/", "attributes.k:>=-1.5e3",
            "severity:(>=warn AND <fatal)", "template_id:<18446744073709551615", "trace_id:0af7*",
            "resource.k8s.pod.name:/cart-[a-z0-9]+/ span_id:*", "caf\u00e9 \u65e5\u672c\u8a9e \ud83d\ude00*");

    @Test
    void mutated_queries_parse_or_are_refused_with_a_column() throws Exception {
        QueryDoc doc = QueryDoc.read();
        Collection<LogRecord> rows = doc.exampleRows().values();
        List<byte[]> corpus = new ArrayList<>();
        for (List<String> example : doc.table("| query | matches |")) {
            corpus.add(example.get(0).getBytes(StandardCharsets.UTF_8));
        }
        for (List<String> error : doc.table("| query | column | reason contains |")) {
            corpus.add(error.get(0).getBytes(StandardCharsets.UTF_8));
        }
        EXTRA.forEach(s -> corpus.add(s.getBytes(StandardCharsets.UTF_8)));
        long seed = Fuzzer.seed();
        corpus.addAll(soup(new SplittableRandom(seed ^ 0x5eed), 500));
        Fuzzer.Result r = new Fuzzer("search-parser", new Mutator(corpus), Duration.ofSeconds(10)).run(
                seed, Fuzzer.cases(20_000), QuerySyntaxException.class, input -> judge(input, rows));
        assertEquals(r.cases(), r.accepted() + r.refused());
    }

    /**
     * Queries made of the language's own pieces in random order (operators, fields, quotes, escapes, regex syntax):
     * material that reaches the parser's deeper paths more often than byte mutations of valid queries alone.
     */
    private static List<byte[]> soup(SplittableRandom r, int n) {
        String[] pieces = {"a", "b7", " ", "  ", "(", ")", "\"", ":", "*", "\\", "-", "/", ">", ">=", "<", "=",
            "AND", "OR", "NOT", " AND ", " OR ", "NOT ", "service", "severity", "attributes.x", "resource.k",
            "trace_id", "template_id", "body", "warn", "5", "-1.5", "1e3", "{2}", "{1000}", "[a-z]", "+", "?", "|",
            ".", "\\/", "(?i)", "\\1", "\u00e9", "\ud83d\ude00", "\t"};
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            StringBuilder b = new StringBuilder();
            for (int k = 1 + r.nextInt(30); k > 0; k--) {
                b.append(pieces[r.nextInt(pieces.length)]);
            }
            out.add(b.toString().getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    /** Null for a clean outcome, else what is wrong; a refusal is rethrown after its column is checked. */
    private static String judge(byte[] input, Collection<LogRecord> rows) throws QuerySyntaxException {
        String text = new String(input, StandardCharsets.UTF_8);
        int length = text.codePointCount(0, text.length());
        SearchQuery s;
        try {
            s = SearchQuery.parse(text);
        } catch (QuerySyntaxException e) {
            int last = Math.min(length, SearchLimits.DEFAULT.maxLength()) + 1;
            if (e.column() < 1 || e.column() > last) {
                throw new AssertionError("column " + e.column() + " outside 1.." + last + ": " + e.getMessage(), e);
            }
            throw e;
        }
        Query q = s.applyTo(Query.tenant("acme"));
        for (LogRecord row : rows) {
            boolean byItself = s.test(row);
            if (q.rowPredicate().test(row) != byItself) {
                return "the query's predicate and the search disagree on " + row + " for " + s.expression();
            }
        }
        return null;
    }
}
