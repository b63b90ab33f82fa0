package dev.ourios.compaction.plan;

import dev.ourios.core.PartitionKey;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What makes a rewrite a rollup (docs/spec/storage.md, "Rollup: small hours into day files"): its output goes into the
 * day partition's directory, a day file's rows are checked against the tenant and the day (not an hour) and only
 * those of the hours the day validly covers are carried (the others are dead: their hours' own files hold them), and
 * each hour input is checked against its own hour.
 *
 * @param dayPrefix    the day partition's directory ({@code …/day=DD/rollup/}); the output goes there and the inputs
 *                     under it are day files
 * @param tenantId     the tenant
 * @param fromNanos    the day's start, inclusive (effective time)
 * @param toNanos      the day's end, exclusive
 * @param carriedHours the hours (0 to 23) whose rows in the day files are carried
 * @param hourInputs   every hour input's key with the hour partition its rows must belong to
 */
public record DayScope(String dayPrefix, String tenantId, long fromNanos, long toNanos, Set<Integer> carriedHours,
        Map<String, PartitionKey> hourInputs) {
    private static final long NANOS_PER_HOUR = 3_600_000_000_000L;

    public DayScope {
        Objects.requireNonNull(dayPrefix, "dayPrefix is null");
        Objects.requireNonNull(tenantId, "tenantId is null");
        carriedHours = Set.copyOf(carriedHours);
        hourInputs = Map.copyOf(hourInputs);
    }

    /** True if {@code key} is a file of the day partition (its rows are filtered by hour). */
    public boolean isDayFile(String key) {
        return key.startsWith(dayPrefix) && key.indexOf('/', dayPrefix.length()) < 0;
    }

    /** The hour partition an input's rows are checked against; empty for a day file. */
    public Optional<PartitionKey> expectedPartition(String key) {
        return Optional.ofNullable(hourInputs.get(key));
    }

    /** True if a row of this tenant and effective time belongs to the day. */
    public boolean holds(String rowTenantId, long effectiveTimeUnixNano) {
        return tenantId.equals(rowTenantId) && effectiveTimeUnixNano >= fromNanos && effectiveTimeUnixNano < toNanos;
    }

    /** True if a day file's row of this effective time is carried (its hour is validly covered). */
    public boolean carries(long effectiveTimeUnixNano) {
        return carriedHours.contains((int) ((effectiveTimeUnixNano - fromNanos) / NANOS_PER_HOUR));
    }
}
