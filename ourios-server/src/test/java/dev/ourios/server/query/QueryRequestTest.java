package dev.ourios.server.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Bytes;
import dev.ourios.query.Query;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The body of POST /v1/query: every filter of `ourios query`, strictly checked, errors naming the field. */
class QueryRequestTest {
    private static Query parse(String json) {
        return QueryRequest.parseRequest("acme", json.getBytes(StandardCharsets.UTF_8), 1000).query();
    }

    private static BadRequest refused(String json) {
        return assertThrows(BadRequest.class, () -> parse(json));
    }

    @Test
    void every_filter_maps_to_the_query_model() {
        Query q = parse("{\"from\":\"2026-11-01T10:00:00Z\",\"to\":\"2026-11-01T12:00:00+01:00\",\"service\":\"cart\","
                + "\"template_id\":\"18446744073709551615\",\"severity_min\":9,"
                + "\"trace_id\":\"0123456789ABCDEF0123456789abcdef\",\"contains\":\"timeout\",\"limit\":5,"
                + "\"order\":\"oldest_first\"}");
        assertEquals("acme", q.tenant());
        assertEquals(Instant.parse("2026-11-01T10:00:00Z"), q.from().orElseThrow());
        assertEquals(Instant.parse("2026-11-01T11:00:00Z"), q.to().orElseThrow(), "offsets are honoured");
        assertEquals("cart", q.service().orElseThrow());
        assertEquals(-1L, q.templateId().getAsLong(), "u64 max carried bit for bit");
        assertEquals(9, q.severityMin().getAsInt());
        assertArrayEquals(Bytes.fromHex("0123456789abcdef0123456789abcdef"), q.traceId().orElseThrow());
        assertEquals("timeout", q.bodyContains().orElseThrow());
        assertEquals(5, q.limit().getAsLong());
        assertEquals(Query.Order.OLDEST_FIRST, q.order());
    }

    @Test
    void an_empty_body_is_every_row_newest_first_up_to_the_row_cap() {
        Query q = parse("");
        assertEquals(1000, q.limit().getAsLong());
        assertEquals(Query.Order.NEWEST_FIRST, q.order());
        assertTrue(q.from().isEmpty() && q.service().isEmpty());
        assertEquals(parse("{}"), q);
        assertEquals(parse("{\"service\":null}"), q);
        assertEquals(7L, parse("{\"template_id\":7}").templateId().getAsLong());
    }

    @Test
    void count_asks_for_the_number_of_rows_only() {
        QueryRequest.Parsed counted = QueryRequest.parseRequest("acme",
                "{\"severity_min\":17,\"count\":true}".getBytes(StandardCharsets.UTF_8), 1000);
        assertTrue(counted.count());
        assertEquals(17, counted.query().severityMin().getAsInt());
        assertEquals(false, QueryRequest.parseRequest("acme", "{}".getBytes(StandardCharsets.UTF_8), 1000).count());
        assertEquals("count", refused("{\"count\":1}").fieldName());
        assertTrue(refused("{\"count\":\"yes\"}").getMessage().contains("true or false"));
    }

    @Test
    void bad_bodies_are_400s_naming_the_field() {
        assertEquals(null, refused("{\"limit\":").fieldName());
        assertTrue(refused("{\"limit\":").getMessage().startsWith("malformed JSON body"));
        assertTrue(refused("[]").getMessage().contains("JSON object"));
        assertTrue(refused("{} {}").getMessage().startsWith("malformed JSON body"));
        assertTrue(refused("{\"limit\":1,\"limit\":2}").getMessage().startsWith("malformed JSON body"));
        for (String[] c : new String[][] {
                {"{\"tenant\":\"x\"}", "tenant"},
                {"{\"from\":\"yesterday\"}", "from"},
                {"{\"to\":5}", "to"},
                {"{\"service\":1}", "service"},
                {"{\"template_id\":\"-1\"}", "template_id"},
                {"{\"template_id\":1.5}", "template_id"},
                {"{\"severity_min\":25}", "severity_min"},
                {"{\"severity_min\":\"9\"}", "severity_min"},
                {"{\"trace_id\":\"xyz\"}", "trace_id"},
                {"{\"contains\":[\"a\"]}", "contains"},
                {"{\"limit\":1001}", "limit"},
                {"{\"limit\":-1}", "limit"},
                {"{\"limit\":2.5}", "limit"},
                {"{\"order\":\"newest\"}", "order"},
                {"{\"from\":\"2026-11-01T11:00:00Z\",\"to\":\"2026-11-01T10:00:00Z\"}", "to"}}) {
            BadRequest e = refused(c[0]);
            assertEquals(400, e.status(), c[0]);
            assertEquals(c[1], e.fieldName(), c[0]);
            assertTrue(e.getMessage().startsWith(c[1] + ": "), e.getMessage());
        }
    }

    private static QueryRequest.DeleteBody deletion(String json) {
        return QueryRequest.parseDelete("acme", json.getBytes(StandardCharsets.UTF_8));
    }

    private static String deletionRefusal(String json) {
        return assertThrows(BadRequest.class, () -> deletion(json)).fieldName();
    }

    @Test
    void a_deletion_body_is_the_query_filters_with_a_window_and_dry_run() {
        String filters = "\"from\":\"2026-11-01T10:00:00Z\",\"to\":\"2026-11-01T12:00:00Z\",\"service\":\"cart\","
                + "\"template_id\":\"7\",\"severity_min\":9,\"trace_id\":\"0123456789abcdef0123456789abcdef\","
                + "\"contains\":\"card=\"";
        QueryRequest.DeleteBody d = deletion("{" + filters + ",\"dry_run\":true}");
        assertTrue(d.dryRun());
        Query q = parse("{" + filters + "}");
        Query f = d.filter();
        assertEquals(List.of(q.tenant(), q.from(), q.to(), q.service(), q.templateId(), q.severityMin(),
                q.bodyContains()), List.of(f.tenant(), f.from(), f.to(), f.service(), f.templateId(), f.severityMin(),
                f.bodyContains()), "the same filters as the query's");
        assertArrayEquals(q.traceId().orElseThrow(), f.traceId().orElseThrow());
        assertEquals(false, deletion("{" + filters + ",\"dry_run\":null}").dryRun());
        assertTrue(d.filter().limit().isEmpty(), "a deletion has no limit");
    }

    @Test
    void a_deletion_body_without_a_window_or_with_query_only_fields_is_refused_naming_the_field() {
        String window = "\"from\":\"2026-11-01T10:00:00Z\",\"to\":\"2026-11-01T12:00:00Z\"";
        assertEquals("from", deletionRefusal("{\"to\":\"2026-11-01T12:00:00Z\"}"));
        assertEquals("to", deletionRefusal("{\"from\":\"2026-11-01T10:00:00Z\"}"));
        assertEquals("to", deletionRefusal("{\"from\":\"2026-11-01T10:00:00Z\",\"to\":null}"));
        assertEquals("from", deletionRefusal(""));
        for (String field : new String[] {"tenant", "limit", "order", "count", "cursor"}) {
            assertEquals(field, deletionRefusal("{" + window + ",\"" + field + "\":\"x\"}"), field);
        }
        assertEquals("dry_run", deletionRefusal("{" + window + ",\"dry_run\":\"true\"}"));
        assertEquals("severity_min", deletionRefusal("{" + window + ",\"severity_min\":0}"));
        assertEquals("to", deletionRefusal("{\"from\":\"2026-11-01T10:00:00Z\",\"to\":\"2026-11-01T10:00:00Z\"}"));
    }
}
