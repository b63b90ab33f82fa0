package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.BodyKind;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.RowCondition;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.query.search.SearchQuery;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query's row filter is decided on every row its fixed filters keep, by the query, the count (which must then
 * decode rows whole) and the query's row predicate alike; the fixed filters a search sets still prune row groups.
 */
class RowConditionQueryTest {
    private static final long BASE = 1_793_527_200_000_000_000L; // 2026-11-01T10:00:00Z

    @TempDir
    Path dir;

    /** Keeps rows whose time is even: a condition no fixed filter can state. */
    private record EvenTime() implements RowCondition {
        @Override
        public boolean test(LogRecord row) {
            return row.timeUnixNano() % 2 == 0;
        }

        @Override
        public String text() {
            return "even time";
        }
    }

    @Test
    void the_query_the_count_and_the_predicate_apply_the_row_filter() throws Exception {
        TestStore store = new TestStore(dir, 7);
        List<LogRecord> rows = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            rows.add(row(i, i % 2 == 0 ? "cart" : "ad", "line " + i));
        }
        PartitionKey p = PartitionKey.of("acme", BASE);
        store.ingest(p, rows);
        QueryEngine engine = store.engine();
        Query q = Query.tenant("acme").service("cart").condition(new EvenTime());
        long expected = rows.stream().filter(r -> r.serviceName().equals("cart") && r.timeUnixNano() % 2 == 0)
                .count();
        assertEquals(expected, engine.collect(q).rows().size());
        assertEquals(expected, engine.count(q).rows());
        assertEquals(expected, rows.stream().filter(q.rowPredicate()).count());
        assertTrue(engine.collect(q).rows().stream().allMatch(r -> r.timeUnixNano() % 2 == 0));
        assertNotEquals(Query.tenant("acme").service("cart"), q, "the filter is part of the query's identity");
        assertTrue(q.toString().contains("even time"), q.toString());
    }

    @Test
    void a_search_prunes_with_its_fixed_filters() throws Exception {
        TestStore store = new TestStore(dir, 8);
        PartitionKey p = PartitionKey.of("acme", BASE);
        WriterOptions small = WriterOptions.ingest().withRowGroupBytes(4096);
        List<LogRecord> cart = new ArrayList<>();
        List<LogRecord> ad = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            cart.add(row(i, "cart", "connection refused " + i));
            ad.add(row(1000 + i, "ad", "connection refused " + i));
        }
        store.ingest(p, cart, small);
        store.ingest(p, ad, small);
        QueryEngine engine = store.engine();
        Query narrowed = SearchQuery.parse("service:cart refused").applyTo(Query.tenant("acme"));
        Query wide = SearchQuery.parse("refused").applyTo(Query.tenant("acme"));
        QueryStats n = engine.count(narrowed);
        QueryStats w = engine.count(wide);
        assertEquals(400, n.rows());
        assertEquals(800, w.rows());
        assertTrue(n.rowGroupsScanned() < w.rowGroupsScanned(), "service:cart prunes the other service's groups: "
                + n + " vs " + w);
    }

    private static LogRecord row(int i, String service, String line) {
        return LogRecord.builder("acme").timeUnixNano(BASE + i).serviceName(service)
                .resourceAttributes("[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"" + service + "\"}}]")
                .bodyKind(BodyKind.STRING).body(line.getBytes(StandardCharsets.UTF_8)).build();
    }
}
