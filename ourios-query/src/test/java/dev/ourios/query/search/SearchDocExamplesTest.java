package dev.ourios.query.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.query.Query;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Every example of docs/spec/query.md is a test, read from the document itself so the two cannot drift: each query of
 * the examples table matches exactly the example rows it names, both by its own predicate and through a
 * {@link Query} it is applied to (the engine's predicate); each query of the errors table is refused at its column
 * with its reason.
 */
class SearchDocExamplesTest {

    @Test
    void every_example_matches_the_rows_the_document_names() throws Exception {
        QueryDoc doc = QueryDoc.read();
        Map<String, LogRecord> rows = doc.exampleRows();
        assertEquals(5, rows.size(), "the example rows of section 9");
        List<List<String>> examples = doc.table("| query | matches |");
        assertTrue(examples.size() >= 50, "the examples table of section 9 has " + examples.size() + " rows");
        List<String> wrong = new ArrayList<>();
        for (List<String> example : examples) {
            String text = example.get(0);
            TreeSet<String> expected = new TreeSet<>(Arrays.stream(example.get(1).split(","))
                    .map(String::trim).filter(s -> !s.isEmpty()).toList());
            SearchQuery search = SearchQuery.parse(text);
            Predicate<LogRecord> engine = search.applyTo(Query.tenant("acme")).rowPredicate();
            TreeSet<String> byItself = new TreeSet<>();
            TreeSet<String> byEngine = new TreeSet<>();
            rows.forEach((name, r) -> {
                if (search.test(r)) {
                    byItself.add(name);
                }
                if (engine.test(r)) {
                    byEngine.add(name);
                }
            });
            if (!byItself.equals(expected) || !byEngine.equals(expected)) {
                wrong.add(text + ": the document says " + expected + ", the predicate gives " + byItself
                        + ", the query's predicate " + byEngine + " (" + search.expression() + ")");
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void every_error_of_the_document_is_refused_at_its_column() throws Exception {
        List<List<String>> errors = QueryDoc.read().table("| query | column | reason contains |");
        assertTrue(errors.size() >= 30, "the errors table of section 8 has " + errors.size() + " rows");
        List<String> wrong = new ArrayList<>();
        for (List<String> e : errors) {
            QuerySyntaxException x;
            try {
                SearchQuery s = SearchQuery.parse(e.get(0));
                wrong.add(e.get(0) + ": accepted as " + s.expression());
                continue;
            } catch (QuerySyntaxException refused) {
                x = refused;
            }
            int column = Integer.parseInt(e.get(1));
            if (x.column() != column || !x.reason().contains(e.get(2))
                    || !x.getMessage().equals("column " + column + ": " + x.reason())) {
                wrong.add(e.get(0) + ": expected column " + column + " with '" + e.get(2) + "', got '"
                        + x.getMessage() + "'");
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void an_empty_query_matches_every_row() throws Exception {
        for (String blank : List.of("", "   ", "\t\n")) {
            assertEquals(new Expr.All(), SearchQuery.parse(blank).expression());
        }
        assertThrows(QuerySyntaxException.class, () -> SearchQuery.parse("()"));
    }
}
