package dev.ourios.query;

import dev.ourios.core.PartitionKey;
import dev.ourios.table.Cover;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A count a day manifest's covers can answer (docs/spec/storage.md 4.15, "Queries"): one whose only conditions are
 * the tenant, at most a service equality and a time window. For a validly covered hour the window holds whole, a
 * cover that carries its rows per service says how many of the hour's rows in the day files match, so those files need
 * not be read for it.
 *
 * @param service   the service the count asks for; empty: every row
 * @param fromNanos the window's start, inclusive (effective time)
 * @param toNanos   the window's end, exclusive
 */
record CoverCounts(Optional<String> service, long fromNanos, long toNanos) {
    CoverCounts {
        Objects.requireNonNull(service, "service");
    }

    /** The cover counts {@code q} can take; empty when it has a condition a cover does not answer. */
    static Optional<CoverCounts> of(Query q) {
        boolean onlyServiceAndWindow = q.condition().isEmpty() && q.bodyContains().isEmpty()
                && q.templateId().isEmpty() && q.severityMin().isEmpty() && q.traceId().isEmpty();
        return onlyServiceAndWindow ? Optional.of(new CoverCounts(q.service(), q.fromNanos(), q.toNanos()))
                : Optional.empty();
    }

    /**
     * The rows of {@code hour}, validly covered by {@code cover}, in the day files that the count counts; empty when
     * the window cuts the hour or the cover does not carry its rows per service (the day files are then read).
     */
    OptionalLong rows(PartitionKey hour, Cover cover) {
        if (hour.hourStartNanos() < fromNanos || hour.hourEndNanos() > toNanos || cover.services().isEmpty()) {
            return OptionalLong.empty();
        }
        return service.isPresent() ? cover.rowsOf(service.get()) : OptionalLong.of(cover.rows());
    }
}
