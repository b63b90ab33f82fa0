package dev.ourios.query;

import dev.ourios.core.RowCondition;
import dev.ourios.core.RowSelection;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One log query (CLI {@code ourios query}): a {@link RowSelection} (whose exact row predicate it applies) with a
 * limit and an order. Every filter is optional except the tenant, which is structural: only that tenant's directory
 * is ever listed.
 *
 * @param tenant       the tenant whose rows are read
 * @param from         inclusive lower bound on the row's effective time
 * @param to           exclusive upper bound on the row's effective time
 * @param service      exact {@code resource.service.name}
 * @param templateId   exact template id (u64 carried bit for bit in a long)
 * @param severityMin  minimum {@code severity_number}
 * @param traceId      exact 16-byte trace id
 * @param bodyContains substring of the log line (see {@link dev.ourios.core.RowPredicate} for what the line is)
 * @param limit        at most this many rows; empty = all
 * @param order        newest or oldest first, by effective time
 * @param condition    a condition on whole rows beyond the fixed filters (a compiled search), decided last
 */
public record Query(String tenant, Optional<Instant> from, Optional<Instant> to, Optional<String> service,
        OptionalLong templateId, OptionalInt severityMin, Optional<byte[]> traceId, Optional<String> bodyContains,
        OptionalLong limit, Order order, Optional<RowCondition> condition) implements RowSelection {

    /** Result order by effective time. */
    public enum Order {
        NEWEST_FIRST, OLDEST_FIRST
    }

    public Query {
        Objects.requireNonNull(tenant, "tenant");
        if (tenant.isEmpty()) {
            throw new IllegalArgumentException("tenant must not be empty");
        }
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(templateId, "templateId");
        Objects.requireNonNull(severityMin, "severityMin");
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(bodyContains, "bodyContains");
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(condition, "condition");
        if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
            throw new IllegalArgumentException("empty time window: from " + from.get() + " is not before to "
                    + to.get());
        }
        if (traceId.isPresent() && traceId.get().length != 16) {
            throw new IllegalArgumentException("trace id must be 16 bytes, got " + traceId.get().length);
        }
        traceId = traceId.map(byte[]::clone); // the record must not share a caller's mutable array
        if (limit.isPresent() && limit.getAsLong() < 0) {
            throw new IllegalArgumentException("limit must be >= 0, got " + limit.getAsLong());
        }
    }

    /** A query without a row filter. */
    public Query(String tenant, Optional<Instant> from, Optional<Instant> to, Optional<String> service,
            OptionalLong templateId, OptionalInt severityMin, Optional<byte[]> traceId, Optional<String> bodyContains,
            OptionalLong limit, Order order) {
        this(tenant, from, to, service, templateId, severityMin, traceId, bodyContains, limit, order,
                Optional.empty());
    }

    /** Every row of the tenant, newest first. */
    public static Query tenant(String tenant) {
        return new Query(tenant, Optional.empty(), Optional.empty(), Optional.empty(), OptionalLong.empty(),
                OptionalInt.empty(), Optional.empty(), Optional.empty(), OptionalLong.empty(), Order.NEWEST_FIRST);
    }

    public Query window(Instant fromInclusive, Instant toExclusive) {
        return new Query(tenant, Optional.of(fromInclusive), Optional.of(toExclusive), service, templateId,
                severityMin, traceId, bodyContains, limit, order, condition);
    }

    public Query from(Instant fromInclusive) {
        return new Query(tenant, Optional.of(fromInclusive), to, service, templateId, severityMin, traceId,
                bodyContains, limit, order, condition);
    }

    public Query to(Instant toExclusive) {
        return new Query(tenant, from, Optional.of(toExclusive), service, templateId, severityMin, traceId,
                bodyContains, limit, order, condition);
    }

    public Query service(String name) {
        return new Query(tenant, from, to, Optional.of(name), templateId, severityMin, traceId, bodyContains, limit,
                order, condition);
    }

    public Query templateId(long id) {
        return new Query(tenant, from, to, service, OptionalLong.of(id), severityMin, traceId, bodyContains, limit,
                order, condition);
    }

    public Query severityMin(int n) {
        return new Query(tenant, from, to, service, templateId, OptionalInt.of(n), traceId, bodyContains, limit,
                order, condition);
    }

    public Query traceId(byte[] id) {
        return new Query(tenant, from, to, service, templateId, severityMin, Optional.of(id), bodyContains, limit,
                order, condition);
    }

    public Query bodyContains(String text) {
        return new Query(tenant, from, to, service, templateId, severityMin, traceId, Optional.of(text), limit,
                order, condition);
    }

    public Query limit(long n) {
        return new Query(tenant, from, to, service, templateId, severityMin, traceId, bodyContains,
                OptionalLong.of(n), order, condition);
    }

    public Query order(Order o) {
        return new Query(tenant, from, to, service, templateId, severityMin, traceId, bodyContains, limit, o,
                condition);
    }

    /** This query with {@code filter} deciding rows after its fixed filters (it replaces any earlier one). */
    public Query condition(RowCondition filter) {
        return new Query(tenant, from, to, service, templateId, severityMin, traceId, bodyContains, limit, order,
                Optional.of(filter));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Query q && tenant.equals(q.tenant) && from.equals(q.from) && to.equals(q.to)
                && service.equals(q.service) && templateId.equals(q.templateId) && severityMin.equals(q.severityMin)
                && Arrays.equals(traceId.orElse(null), q.traceId.orElse(null))
                && bodyContains.equals(q.bodyContains) && limit.equals(q.limit) && order == q.order
                && condition.equals(q.condition);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tenant, from, to, service, templateId, severityMin, Arrays.hashCode(traceId.orElse(null)),
                bodyContains, limit, order, condition);
    }

    @Override
    public String toString() {
        return "Query[tenant=" + tenant + ", from=" + from + ", to=" + to + ", service=" + service + ", templateId="
                + templateId + ", severityMin=" + severityMin + ", traceId="
                + traceId.map(dev.ourios.core.Bytes::hex) + ", bodyContains=" + bodyContains + ", limit=" + limit
                + ", order=" + order + ", condition=" + condition.map(RowCondition::text) + "]";
    }
}
