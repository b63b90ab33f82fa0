package dev.ourios.table;

import dev.ourios.core.PartitionKey;
import java.util.Objects;

/**
 * How a manifest commit ended. Only {@link Status#COMMITTED} makes the new files visible; for every other status
 * the output is (or may become) an orphan that GC collects after the grace period, so callers never need to clean
 * up by hand, and must not after {@link Status#UNKNOWN}.
 *
 * @param detail a human-readable reason for anything but COMMITTED, empty otherwise
 */
public record CommitResult(Status status, PartitionKey partition, long generation, String manifestKey, String detail) {
    public enum Status {
        /** This call created the manifest: the new generation is current (until a later commit). */
        COMMITTED,
        /** Another committer created this or a later generation first; nothing was written. */
        LOST,
        /** A precondition failed (a named file is missing, or the output is too old to be safe); nothing written. */
        REJECTED,
        /** The store failed during the create and the outcome could not be read back; treat as maybe-committed. */
        UNKNOWN
    }

    public CommitResult {
        Objects.requireNonNull(status, "status is null");
        Objects.requireNonNull(partition, "partition is null");
        Objects.requireNonNull(detail, "detail is null");
    }

    public boolean committed() {
        return status == Status.COMMITTED;
    }
}
