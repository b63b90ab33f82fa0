package dev.ourios.compaction;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import dev.ourios.core.RowSelection;
import dev.ourios.table.PartitionFilter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What to delete: the rows of one tenant that a query with the same filters returns (cli.md, {@code ourios delete}).
 * The tenant and the time window are required, so a request always names a bounded set of partitions; service,
 * minimum severity, trace id, template id and body substring narrow it. Rows are decided by the filter's exact
 * predicate ({@link RowSelection#rowPredicate()}), the one every query applies, so a deletion removes exactly what
 * {@code ourios query} shows.
 *
 * @param filter the conditions whose rows are deleted (a query's, whose order is not used); it has no limit
 */
public record DeletionRequest(RowSelection filter) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public DeletionRequest {
        Objects.requireNonNull(filter, "filter is null");
        if (filter.from().isEmpty() || filter.to().isEmpty()) {
            throw new IllegalArgumentException("a deletion needs a time window: --from and --to are required");
        }
        if (filter.limit().isPresent()) {
            throw new IllegalArgumentException("a deletion has no limit: it removes every matching row");
        }
    }

    public String tenant() {
        return filter.tenant();
    }

    public Instant from() {
        return filter.from().orElseThrow();
    }

    public Instant to() {
        return filter.to().orElseThrow();
    }

    /** The partitions the request may touch: its tenant's hours that overlap the window. */
    public PartitionFilter partitions() {
        return new PartitionFilter(Optional.of(Set.of(tenant())), filter.from(), filter.to());
    }

    /** True for a row the request deletes. */
    public Predicate<LogRecord> matches() {
        return filter.rowPredicate();
    }

    /**
     * The filter as a JSON object with a fixed key order: the request body of the deletion endpoint, the
     * {@code filter} of {@code ourios delete --json}, and the {@code reason} of the manifest's commit record and the
     * audit event. Absent filters are left out.
     */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tenant", tenant());
        m.put("from", from().toString());
        m.put("to", to().toString());
        filter.service().ifPresent(s -> m.put("service", s));
        filter.severityMin().ifPresent(s -> m.put("severity_min", s));
        filter.traceId().ifPresent(t -> m.put("trace_id", Bytes.hex(t)));
        filter.templateId().ifPresent(t -> m.put("template_id", Long.toUnsignedString(t)));
        filter.bodyContains().ifPresent(c -> m.put("contains", c));
        filter.condition().ifPresent(c -> m.put("q", c.text()));
        return m;
    }

    /** {@link #toMap()} as compact JSON. */
    public String toJson() {
        try {
            return JSON.writeValueAsString(toMap());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("BUG: a map of strings and numbers did not serialise", e);
        }
    }
}
