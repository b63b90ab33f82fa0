package dev.ourios.server.query;

import dev.ourios.query.Query;
import dev.ourios.query.search.SearchQuery;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The query parameters of the read endpoints that take them ({@code GET /v1/fields}, {@code /v1/fields/{name}/values},
 * {@code /v1/tail}): strictly known names, RFC 3339 times, a search in {@code q}, a bounded {@code limit}. Every
 * refusal is a 400 naming the parameter.
 */
final class SearchParams {
    private static final Pattern STEP = Pattern.compile("([0-9]{1,9})(ms|s|m|h|d)");

    private final Map<String, String> params;

    private SearchParams(Map<String, String> params) {
        this.params = params;
    }

    /** The parameters, every name among {@code known} (else 400 listing them). */
    static SearchParams of(Map<String, String> params, Set<String> known) {
        for (String name : params.keySet()) {
            if (!known.contains(name)) {
                throw BadRequest.field(name, "unknown query parameter (known: " + String.join(", ",
                        known.stream().sorted().toList()) + ")");
            }
        }
        return new SearchParams(params);
    }

    Optional<Instant> time(String name) {
        String v = params.get(name);
        return v == null ? Optional.empty() : Optional.of(time(name, v));
    }

    static Instant time(String name, String v) {
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException e) {
            throw BadRequest.field(name, "'" + clip(v) + "' is not an RFC 3339 time (e.g. 2026-11-01T10:00:00Z)");
        }
    }

    /** An integer in {@code [min, max]}, or {@code dflt} when not given. */
    int integer(String name, int min, int max, int dflt) {
        String v = params.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw BadRequest.field(name, "must be an integer " + min + ".." + max + " (got '" + clip(v) + "')");
    }

    /** The tenant's query narrowed by {@code from}, {@code to} and {@code q}. */
    Query query(String tenant) {
        Query q = Query.tenant(tenant);
        Optional<Instant> from = time("from");
        Optional<Instant> to = time("to");
        if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
            throw BadRequest.field("to", "must be after from (" + from.get() + ")");
        }
        if (from.isPresent()) {
            q = q.from(from.get());
        }
        if (to.isPresent()) {
            q = q.to(to.get());
        }
        String search = params.get("q");
        if (search != null && !search.isBlank()) {
            SearchQuery s = QueryRequest.search(search);
            q = s.applyTo(q);
        }
        return q;
    }

    /** A bucket width such as {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d}. */
    static Duration step(String name, String v) {
        Matcher m = STEP.matcher(v);
        if (!m.matches()) {
            throw BadRequest.field(name, "'" + clip(v) + "' is not a duration such as 30s, 5m, 1h or 1d");
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
        if (d.compareTo(Duration.ofMillis(1)) < 0) {
            throw BadRequest.field(name, "must be at least 1ms");
        }
        return d;
    }

    /** {@code d} as {@link #step} reads it, in its largest whole unit. */
    static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 86_400_000L == 0) {
            return ms / 86_400_000L + "d";
        }
        if (ms % 3_600_000L == 0) {
            return ms / 3_600_000L + "h";
        }
        if (ms % 60_000L == 0) {
            return ms / 60_000L + "m";
        }
        if (ms % 1000L == 0) {
            return ms / 1000L + "s";
        }
        return ms + "ms";
    }

    /** A value as quoted in a message: at most 64 characters. */
    static String clip(String v) {
        return v.length() <= 64 ? v : v.substring(0, 64) + "…";
    }
}
