package dev.ourios.query.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import dev.ourios.query.Query;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The command flags are shorthands of search terms (docs/spec/query.md, section 5): a search made only of such terms
 * applies to a query as exactly the query the flags build (no row filter, so a count decodes no whole row), and
 * decides the same rows. Other searches keep their fixed filters for pruning and decide rows as their row filter.
 */
class SearchFlagsTest {
    private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";

    @Test
    void a_search_of_flag_terms_is_the_query_the_flags_build() throws Exception {
        Query base = Query.tenant("acme");
        assertEquals(base.service("cart"), SearchQuery.parse("service:cart").applyTo(base));
        assertEquals(base.service("check out"), SearchQuery.parse("service:\"check out\"").applyTo(base));
        assertEquals(base.severityMin(17), SearchQuery.parse("severity:>=17").applyTo(base));
        assertEquals(base.severityMin(13), SearchQuery.parse("severity:>=warn").applyTo(base));
        assertEquals(base.severityMin(17), SearchQuery.parse("severity:>warn").applyTo(base));
        assertEquals(base.traceId(Bytes.fromHex(TRACE)), SearchQuery.parse("trace_id:" + TRACE.toUpperCase())
                .applyTo(base));
        assertEquals(base.templateId(-1L), SearchQuery.parse("template_id:18446744073709551615").applyTo(base));
        assertEquals(base.service("cart").severityMin(17).templateId(42),
                SearchQuery.parse("service:cart AND severity:>=error template_id:42").applyTo(base));
        assertEquals(base, SearchQuery.parse("").applyTo(base));
        assertEquals(base, SearchQuery.parse("*").applyTo(base));
        // A flag already set stays; the search is implied by it or still decides rows.
        assertEquals(base.severityMin(20), SearchQuery.parse("severity:>=17").applyTo(base.severityMin(20)));
        Query both = SearchQuery.parse("service:cart").applyTo(base.service("ad"));
        assertEquals(base.service("ad").condition(SearchQuery.parse("service:cart")), both,
                "service:cart is not implied by --service ad: the search still decides rows");
    }

    @Test
    void other_searches_keep_their_pruning_filters_and_decide_rows_themselves() throws Exception {
        Query base = Query.tenant("acme");
        SearchQuery s = SearchQuery.parse("service:cart severity:error refused");
        Query q = s.applyTo(base);
        assertEquals(base.service("cart").severityMin(17).condition(s), q);
        assertEquals(OptionalInt.of(17), s.hints().severityMin());
        assertFalse(s.hints().exact());
        // Only top-level conjuncts prune: under OR or NOT nothing is implied.
        assertEquals(base.condition(SearchQuery.parse("service:cart OR refused")),
                SearchQuery.parse("service:cart OR refused").applyTo(base));
        assertEquals(base.condition(SearchQuery.parse("-service:cart")),
                SearchQuery.parse("-service:cart").applyTo(base));
        assertThrows(IllegalArgumentException.class, () -> s.applyTo(q), "one row filter per query");
    }

    @Test
    void flags_and_their_terms_decide_the_same_rows() throws Exception {
        long seed = Long.getLong("ourios.search.seed", System.nanoTime());
        System.out.println("SearchFlagsTest: seed " + seed + " (replay with -Dourios.search.seed=" + seed + ")");
        SplittableRandom r = new SplittableRandom(seed);
        List<LogRecord> rows = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            LogRecord.Builder b = LogRecord.builder("acme").timeUnixNano(1 + i).severityNumber(r.nextInt(25))
                    .templateId(List.of(0L, 42L, -1L).get(r.nextInt(3)))
                    .traceId(r.nextBoolean() ? Bytes.fromHex(TRACE) : null);
            String service = List.of("cart", "Cart", "ad").get(r.nextInt(3));
            if (r.nextBoolean()) {
                b.serviceName(service); // the promoted column
            }
            // For rows without it, the service comes from the first string service.name of the resource.
            b.resourceAttributes("[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"" + service + "\"}}]");
            rows.add(b.build());
        }
        Query base = Query.tenant("acme");
        List<Query[]> pairs = List.of(
                new Query[] {base.service("cart"), base.condition(SearchQuery.parse("service:cart"))},
                new Query[] {base.severityMin(13), base.condition(SearchQuery.parse("severity:>=13"))},
                new Query[] {base.traceId(Bytes.fromHex(TRACE)), base.condition(SearchQuery.parse("trace_id:" + TRACE))},
                new Query[] {base.templateId(-1L), base.condition(SearchQuery.parse("template_id:18446744073709551615"))});
        for (Query[] pair : pairs) {
            for (LogRecord row : rows) {
                assertEquals(pair[0].rowPredicate().test(row), pair[1].rowPredicate().test(row),
                        pair[0] + " vs " + pair[1] + " on " + row);
            }
        }
    }
}
