package dev.ourios.server.query;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.core.Bytes;
import dev.ourios.query.Query;
import dev.ourios.query.search.QuerySyntaxException;
import dev.ourios.query.search.SearchQuery;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The JSON body of {@code POST /v1/query}: the filters of {@code ourios query} with snake_case names. Parsed
 * strictly (unknown fields, duplicate fields, wrong types and out-of-range values are 400s naming the field), so a
 * misspelt filter is never silently ignored and the query never returns more than was asked for. The body of
 * {@code POST /v1/delete} is parsed by the same filter code ({@link #parseDelete}), so it never deletes more than
 * was asked for either.
 */
final class QueryRequest {
    static final Set<String> FIELDS = Set.of("from", "to", "service", "template_id", "severity_min", "trace_id",
            "contains", "q", "limit", "order", "count", "cursor");
    /** The fields of a {@code POST /v1/delete} body: the filters, and {@code dry_run}. */
    static final Set<String> DELETE_FIELDS = Set.of("from", "to", "service", "template_id", "severity_min",
            "trace_id", "contains", "q", "dry_run");
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private QueryRequest() {
    }

    /**
     * A parsed request: the query, whether only its matching rows' number is asked for ({@code "count"}), where a
     * truncated earlier response left off ({@code "cursor"}), and whether the limit is the server's row cap rather
     * than one the client chose below it.
     */
    record Parsed(Query query, boolean count, Optional<QueryCursor> cursor, boolean limitIsCap) {
    }

    /**
     * @param tenant  from the {@code X-Ourios-Tenant} header, already checked
     * @param body    the request body; empty = no filters
     * @param maxRows the default limit and the largest one accepted
     */
    static Parsed parseRequest(String tenant, byte[] body, int maxRows) {
        JsonNode root = read(body);
        Query q = Query.tenant(tenant);
        long limit = maxRows;
        boolean count = false;
        Optional<QueryCursor> cursor = Optional.empty();
        Optional<SearchQuery> search = Optional.empty();
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            String f = e.getKey();
            JsonNode v = e.getValue();
            if (!known(FIELDS, f, v)) {
                continue; // null = not given
            }
            try {
                switch (f) {
                    case "limit" -> limit = integer(f, v, 0, maxRows);
                    case "count" -> count = bool(f, v);
                    case "cursor" -> cursor = Optional.of(QueryCursor.decode(text(f, v)));
                    case "order" -> q = q.order(order(v));
                    case "q" -> search = Optional.of(search(v));
                    default -> q = filter(q, f, v);
                }
            } catch (BadRequest ex) {
                throw ex;
            } catch (IllegalArgumentException ex) { // the query model's own checks, e.g. an empty time window
                throw BadRequest.field(f, ex.getMessage());
            }
        }
        q = withSearch(q, search);
        if (count && cursor.isPresent()) {
            throw BadRequest.field("cursor", "a count has no pages (drop cursor or count)");
        }
        return new Parsed(q.limit(limit), count, cursor, limit == maxRows);
    }

    /**
     * The body of {@code POST /v1/delete}: the filters of {@code /v1/query} (the same fields, parsed by the same
     * code, so a deletion removes exactly the rows a query with that body returns) with {@code from} and {@code to}
     * required, and {@code dry_run}. No {@code limit}, {@code order}, {@code count} or {@code cursor}: a deletion
     * removes every matching row.
     *
     * @param tenant from the {@code X-Ourios-Tenant} header (or the key), already authorized
     */
    static DeleteBody parseDelete(String tenant, byte[] body) {
        JsonNode root = read(body);
        Query q = Query.tenant(tenant);
        boolean dryRun = false;
        Optional<SearchQuery> search = Optional.empty();
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            String f = e.getKey();
            JsonNode v = e.getValue();
            if (!known(DELETE_FIELDS, f, v)) {
                continue;
            }
            try {
                if (f.equals("dry_run")) {
                    dryRun = bool(f, v);
                } else if (f.equals("q")) {
                    search = Optional.of(search(v));
                } else {
                    q = filter(q, f, v);
                }
            } catch (BadRequest ex) {
                throw ex;
            } catch (IllegalArgumentException ex) {
                throw BadRequest.field(f, ex.getMessage());
            }
        }
        q = withSearch(q, search);
        if (q.from().isEmpty()) {
            throw BadRequest.field("from", "required: a deletion needs a time window (from and to)");
        }
        if (q.to().isEmpty()) {
            throw BadRequest.field("to", "required: a deletion needs a time window (from and to)");
        }
        return new DeleteBody(q, dryRun);
    }

    /** A parsed deletion body: the rows to delete (the tenant's, in the window, narrowed by the filters). */
    record DeleteBody(Query filter, boolean dryRun) {
    }

    /** Refuses a field {@code fields} does not hold; false for a null value (null = not given). */
    private static boolean known(Set<String> fields, String f, JsonNode v) {
        if (!fields.contains(f)) {
            throw BadRequest.field(f, "unknown field (known: " + String.join(", ", fields.stream().sorted()
                    .toList()) + ")");
        }
        return !v.isNull();
    }

    /** One filter field of a query or deletion body applied to {@code q}. */
    private static Query filter(Query q, String f, JsonNode v) {
        return switch (f) {
            case "from" -> q.from(time(f, v));
            case "to" -> q.to(time(f, v));
            case "service" -> q.service(text(f, v));
            case "template_id" -> q.templateId(templateId(v));
            case "severity_min" -> q.severityMin((int) integer(f, v, 1, 24));
            case "trace_id" -> q.traceId(traceId(v));
            case "contains" -> q.bodyContains(text(f, v));
            default -> throw new IllegalStateException("BUG: '" + f + "' is not a filter field");
        };
    }

    /**
     * The {@code "q"} field: a search query (docs/spec/query.md); one that is not valid is a 400 naming the column
     * where it fails.
     */
    static SearchQuery search(JsonNode v) {
        return search(text("q", v));
    }

    /** {@link #search(JsonNode)} for a query parameter. */
    static SearchQuery search(String text) {
        try {
            return SearchQuery.parse(text);
        } catch (QuerySyntaxException e) {
            throw BadRequest.field("q", e.getMessage());
        }
    }

    /** {@code q} narrowed by the search, applied once every other filter is in (they combine by AND). */
    static Query withSearch(Query q, Optional<SearchQuery> search) {
        return search.isPresent() ? search.get().applyTo(q) : q;
    }

    private static boolean bool(String f, JsonNode v) {
        if (!v.isBoolean()) {
            throw BadRequest.field(f, "expected true or false");
        }
        return v.asBoolean();
    }

    static JsonNode read(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            return JSON.createObjectNode();
        }
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new BadRequest(400, null, "malformed JSON body: " + e.getOriginalMessage().replace('\n', ' '));
        }
        if (!root.isObject()) {
            throw new BadRequest(400, null, "the body must be a JSON object of filters");
        }
        return root;
    }

    static String text(String f, JsonNode v) {
        if (!v.isTextual()) {
            throw BadRequest.field(f, "expected a string");
        }
        return v.asText();
    }

    private static Instant time(String f, JsonNode v) {
        String s = text(f, v);
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeParseException e) {
            throw BadRequest.field(f, "'" + s + "' is not an RFC 3339 time (e.g. 2026-11-01T10:00:00Z)");
        }
    }

    private static long integer(String f, JsonNode v, long min, long max) {
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw BadRequest.field(f, "expected an integer");
        }
        long n = v.asLong();
        if (n < min || n > max) {
            throw BadRequest.field(f, "must be " + min + ".." + max + " (got " + n + ")");
        }
        return n;
    }

    /** u64: a decimal string (JSON numbers lose precision above 2^53 in many clients) or a non-negative integer. */
    private static long templateId(JsonNode v) {
        String s = v.isTextual() ? v.asText() : v.isIntegralNumber() ? v.bigIntegerValue().toString() : null;
        if (s == null) {
            throw BadRequest.field("template_id", "expected an unsigned 64-bit integer (string or number)");
        }
        try {
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw BadRequest.field("template_id", "'" + s + "' is not an unsigned 64-bit integer");
        }
    }

    private static byte[] traceId(JsonNode v) {
        String s = text("trace_id", v);
        if (!s.matches("[0-9a-fA-F]{32}")) {
            throw BadRequest.field("trace_id", "'" + s + "' is not 32 hex digits");
        }
        return Bytes.fromHex(s.toLowerCase(Locale.ROOT));
    }

    private static Query.Order order(JsonNode v) {
        String s = text("order", v);
        return switch (s) {
            case "newest_first" -> Query.Order.NEWEST_FIRST;
            case "oldest_first" -> Query.Order.OLDEST_FIRST;
            default -> throw BadRequest.field("order", "'" + s + "' is not newest_first or oldest_first");
        };
    }
}
