package dev.ourios.query.aggregate;

import dev.ourios.query.Query;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What to count: the rows of {@code query} in {@code [from, to)} per bucket of {@code step} (aligned to the epoch),
 * grouped by up to two fields, keeping the {@code maxGroups} largest groups and counting the rest as "other".
 *
 * @param query     the rows (its window is replaced by {@code [from, to)}; limit and order do not apply)
 * @param from      inclusive start
 * @param to        exclusive end
 * @param step      bucket width, at least 1 ms
 * @param groupBy   zero, one or two fields
 * @param maxGroups the groups reported at most (the rest summed as "other"), at least 1
 */
public record CountsRequest(Query query, Instant from, Instant to, Duration step, List<GroupField> groupBy,
        int maxGroups) {
    /** The buckets one request may ask for at most. */
    public static final int MAX_BUCKETS = 10_000;
    /** Group-by fields at most. */
    public static final int MAX_GROUP_FIELDS = 2;

    public CountsRequest {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(step, "step");
        groupBy = List.copyOf(groupBy);
        if (!from.isBefore(to)) {
            throw new IllegalArgumentException("empty time window: from " + from + " is not before to " + to);
        }
        if (step.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException("step must be at least 1ms (got " + step + ")");
        }
        long buckets = Steps.buckets(Duration.between(from, to), step);
        if (buckets > MAX_BUCKETS) {
            throw new IllegalArgumentException("step " + step + " cuts the window into " + buckets
                    + " buckets; at most " + MAX_BUCKETS + " (widen step or narrow the window)");
        }
        if (groupBy.size() > MAX_GROUP_FIELDS) {
            throw new IllegalArgumentException("at most " + MAX_GROUP_FIELDS + " group-by fields (got "
                    + groupBy.size() + ")");
        }
        if (maxGroups < 1) {
            throw new IllegalArgumentException("max groups must be at least 1 (got " + maxGroups + ")");
        }
    }

    /** The query narrowed to the window. */
    Query windowed() {
        return query.window(from, to);
    }
}
