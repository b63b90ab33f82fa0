package dev.ourios.server.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.http.Exchange;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.QueryStats;
import dev.ourios.query.aggregate.CountsOverTime;
import dev.ourios.query.aggregate.CountsRequest;
import dev.ourios.query.aggregate.FieldSurvey;
import dev.ourios.query.aggregate.GroupField;
import dev.ourios.query.aggregate.Steps;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /v1/stats} (rows matching a query per time bucket, optionally by up to two fields),
 * {@code GET /v1/fields} (the attribute and resource keys of a window) and {@code GET /v1/fields/{name}/values} (a
 * field's most frequent values). Each takes a query slot and runs within {@code http.query_timeout}, like a query.
 */
final class AggregateEndpoints {
    static final Set<String> STATS_FIELDS = Set.of("from", "to", "q", "step", "group_by", "max_groups");
    static final Set<String> FIELDS_PARAMS = Set.of("from", "to", "q", "limit");
    /** Groups reported by default, and at most. */
    static final int DEFAULT_GROUPS = 10;
    static final int MAX_GROUPS = 100;
    /** Keys or values reported by default, and at most. */
    static final int DEFAULT_NAMES = 100;
    static final int MAX_NAMES = 1000;
    /** Rows one fields or values request reads at most; an answer that stopped there is partial. */
    static final long MAX_ROWS_SCANNED = 1_000_000;
    private static final String VALUES_PREFIX = "/v1/fields/";
    private static final String VALUES_SUFFIX = "/values";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final QueryEngine engine;
    private final QuerySlots slots;
    private final QueryPages pages;

    AggregateEndpoints(QueryEngine engine, QuerySlots slots, QueryPages pages) {
        this.engine = engine;
        this.slots = slots;
        this.pages = pages;
    }

    /** {@code POST /v1/stats}. */
    QueryStats stats(Exchange ex) throws Exception {
        CountsRequest request = statsRequest(ex.tenant(), ex.body());
        CountsOverTime.Counts counts;
        try (QuerySlots.Slot slot = slots.acquire()) {
            counts = pages.bounded(() -> new CountsOverTime(engine).run(request), slot);
        }
        ex.sendJson(200, CountsJson.of(request, counts));
        return counts.stats();
    }

    /** {@code GET /v1/fields}. */
    QueryStats fields(Exchange ex) throws Exception {
        SearchParams p = SearchParams.of(ex.queryParameters(), FIELDS_PARAMS);
        Query q = p.query(ex.tenant());
        int limit = p.integer("limit", 1, MAX_NAMES, DEFAULT_NAMES);
        FieldSurvey.Survey s;
        try (QuerySlots.Slot slot = slots.acquire()) {
            s = pages.bounded(() -> new FieldSurvey(engine).keys(q, limit, MAX_ROWS_SCANNED), slot);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("fields", names(s, "name"));
        out.put("rows_scanned", s.rowsScanned());
        out.put("partial", s.partial());
        ex.sendJson(200, out);
        return s.stats();
    }

    /** {@code GET /v1/fields/{name}/values}. */
    QueryStats values(Exchange ex) throws Exception {
        String path = ex.path();
        String name = path.substring(VALUES_PREFIX.length(), path.length() - VALUES_SUFFIX.length());
        GroupField field;
        try {
            field = GroupField.parse(name);
        } catch (IllegalArgumentException e) {
            throw new BadRequest(400, "name", "name: " + e.getMessage());
        }
        SearchParams p = SearchParams.of(ex.queryParameters(), FIELDS_PARAMS);
        Query q = p.query(ex.tenant());
        int limit = p.integer("limit", 1, MAX_NAMES, DEFAULT_NAMES);
        FieldSurvey.Survey s;
        try (QuerySlots.Slot slot = slots.acquire()) {
            s = pages.bounded(() -> new FieldSurvey(engine).values(q, field, limit, MAX_ROWS_SCANNED), slot);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("field", field.name());
        out.put("values", names(s, "value"));
        out.put("rows_scanned", s.rowsScanned());
        out.put("partial", s.partial());
        ex.sendJson(200, out);
        return s.stats();
    }

    private static List<Map<String, Object>> names(FieldSurvey.Survey s, String label) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (FieldSurvey.Count c : s.counts()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put(label, c.name());
            o.put("rows", c.rows());
            out.add(o);
        }
        return out;
    }

    /** The body of {@code POST /v1/stats}, strictly parsed like a query's. */
    static CountsRequest statsRequest(String tenant, byte[] body) {
        JsonNode root = QueryRequest.read(body);
        Instant from = null;
        Instant to = null;
        String search = null;
        Duration step = null;
        List<GroupField> groupBy = new ArrayList<>();
        int maxGroups = DEFAULT_GROUPS;
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            String f = e.getKey();
            JsonNode v = e.getValue();
            if (!STATS_FIELDS.contains(f)) {
                throw BadRequest.field(f, "unknown field (known: " + String.join(", ", STATS_FIELDS.stream().sorted()
                        .toList()) + ")");
            }
            if (v.isNull()) {
                continue;
            }
            switch (f) {
                case "from" -> from = SearchParams.time(f, QueryRequest.text(f, v));
                case "to" -> to = SearchParams.time(f, QueryRequest.text(f, v));
                case "q" -> search = QueryRequest.text(f, v);
                case "step" -> step = SearchParams.step(f, QueryRequest.text(f, v));
                case "max_groups" -> {
                    if (!v.isIntegralNumber() || v.asLong() < 1 || v.asLong() > MAX_GROUPS) {
                        throw BadRequest.field(f, "must be an integer 1.." + MAX_GROUPS);
                    }
                    maxGroups = v.asInt();
                }
                default -> groupBy = groupBy(v);
            }
        }
        if (from == null) {
            throw BadRequest.field("from", "required: counts are over a time window (from and to)");
        }
        if (to == null) {
            throw BadRequest.field("to", "required: counts are over a time window (from and to)");
        }
        if (!from.isBefore(to)) {
            throw BadRequest.field("to", "must be after from (" + from + ")");
        }
        Query q = Query.tenant(tenant).window(from, to);
        if (search != null && !search.isBlank()) {
            q = QueryRequest.search(search).applyTo(q);
        }
        Duration chosen = step != null ? step : Steps.choose(Duration.between(from, to), Steps.TARGET_BUCKETS);
        try {
            return new CountsRequest(q, from, to, chosen, groupBy, maxGroups);
        } catch (IllegalArgumentException e) {
            throw BadRequest.field("step", e.getMessage());
        }
    }

    private static List<GroupField> groupBy(JsonNode v) {
        if (!v.isArray()) {
            throw BadRequest.field("group_by", "expected an array of at most " + CountsRequest.MAX_GROUP_FIELDS
                    + " field names");
        }
        if (v.size() > CountsRequest.MAX_GROUP_FIELDS) {
            throw BadRequest.field("group_by", "at most " + CountsRequest.MAX_GROUP_FIELDS + " fields (got "
                    + v.size() + ")");
        }
        List<GroupField> out = new ArrayList<>();
        for (JsonNode n : v) {
            if (!n.isTextual()) {
                throw BadRequest.field("group_by", "expected field names (strings)");
            }
            try {
                out.add(GroupField.parse(n.asText()));
            } catch (IllegalArgumentException e) {
                throw BadRequest.field("group_by", e.getMessage());
            }
        }
        return out;
    }
}
