package dev.ourios.compaction.plan;

import dev.ourios.core.PartitionKey;
import java.util.Objects;
import java.util.Optional;

/** The policy's answer for one partition: a plan, or the reason there is none. Never null. */
public record PlanDecision(PartitionKey partition, Optional<CompactionPlan> plan, String reason) {
    public PlanDecision {
        Objects.requireNonNull(partition, "partition is null");
        Objects.requireNonNull(plan, "plan is null");
        Objects.requireNonNull(reason, "reason is null");
    }

    public static PlanDecision compact(CompactionPlan plan, String reason) {
        return new PlanDecision(plan.partition(), Optional.of(plan), reason);
    }

    public static PlanDecision none(PartitionKey partition, String reason) {
        return new PlanDecision(partition, Optional.empty(), reason);
    }

    public boolean isCandidate() {
        return plan.isPresent();
    }
}
