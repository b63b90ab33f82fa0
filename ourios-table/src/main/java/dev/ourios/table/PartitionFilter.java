package dev.ourios.table;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which partitions a walk visits: optionally only some tenants, optionally only hours that overlap the window
 * {@code [from, to)}. An hour overlaps when it starts before {@code to} and ends after {@code from}, so a window
 * that is not hour-aligned still includes the hours it touches.
 */
public record PartitionFilter(Optional<Set<String>> tenants, Optional<Instant> from, Optional<Instant> to) {
    public PartitionFilter {
        Objects.requireNonNull(tenants, "tenants is null");
        Objects.requireNonNull(from, "from is null");
        Objects.requireNonNull(to, "to is null");
        tenants = tenants.map(Set::copyOf);
        if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
            throw new IllegalArgumentException("empty time window: from " + from.get() + " is not before to " + to.get());
        }
    }

    public static PartitionFilter all() {
        return new PartitionFilter(Optional.empty(), Optional.empty(), Optional.empty());
    }

    public PartitionFilter withTenants(Set<String> ids) {
        return new PartitionFilter(Optional.of(ids), from, to);
    }

    public PartitionFilter withWindow(Instant fromInclusive, Instant toExclusive) {
        return new PartitionFilter(tenants, Optional.of(fromInclusive), Optional.of(toExclusive));
    }

    /** True if {@code [start, end)} overlaps the window. */
    boolean overlaps(Instant start, Instant end) {
        return to.map(start::isBefore).orElse(true) && from.map(end::isAfter).orElse(true);
    }
}
