package dev.ourios.compaction;

import dev.ourios.table.CommitRecord;
import dev.ourios.table.CommitResult;
import java.util.Locale;
import java.util.Optional;

/**
 * What one run of the {@link RewriteProtocol} came to, before a plan reports it in its own result type. Only
 * {@link Committed} changed the partition; every other outcome left it exactly as it was (an output already
 * published is an orphan GC collects after the grace).
 */
public sealed interface RewriteOutcome {
    /** Seconds from the first step to the outcome. */
    double seconds();

    /** The rewrite found nothing to change: nothing written, nothing committed. */
    record Unchanged(PlannedRewrite planned, StagedRewrite staged, double seconds) implements RewriteOutcome {
    }

    /** The rows written are not the rows read (count or checksum): nothing committed. */
    record Unverified(PlannedRewrite planned, StagedRewrite staged, double seconds) implements RewriteOutcome {
    }

    /** The commit created {@code generation}. */
    record Committed(PlannedRewrite planned, StagedRewrite staged, long generation, double seconds)
            implements RewriteOutcome {
        public CommitRecord record() {
            return staged.commitRecord();
        }
    }

    /** Another committer created the next generation first, on every one of {@code attempts} attempts. */
    record Lost(PlannedRewrite planned, StagedRewrite staged, String detail, int attempts, double seconds)
            implements RewriteOutcome {
    }

    /** The commit was {@code REJECTED} (a precondition failed) or its outcome is {@code UNKNOWN}. */
    record Refused(PlannedRewrite planned, StagedRewrite staged, CommitResult.Status status, String detail,
            double seconds) implements RewriteOutcome {
        /** {@code rejected} or {@code unknown}. */
        public String statusLabel() {
            return status.name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A step threw; {@code error} is never a {@link VirtualMachineError} (those end the process).
     *
     * @param planned the last plan step's result, empty when no snapshot was read
     */
    record Failed(Optional<PlannedRewrite> planned, Throwable error, double seconds) implements RewriteOutcome {
        /** The generation the partition was planned at, or {@code otherwise} when it was not read. */
        public long generation(long otherwise) {
            return planned.map(PlannedRewrite::generation).orElse(otherwise);
        }
    }
}
