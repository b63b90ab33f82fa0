package dev.ourios.compaction.plan;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

/**
 * Which partitions to compact (policy, pure: no I/O). Sealed: {@code now >= hour start + 1 h + grace}.
 * Candidate: sealed, at least two live files, and more than {@code min-files} live files or any live file smaller
 * than {@code small-file-bytes}. A one-file partition is never a candidate (nothing to merge).
 */
public final class CompactionPolicy {
    private final CompactionOptions options;
    private final OptionalLong rowGroupEnv;

    /**
     * @param rowGroupEnv the value of {@code OURIOS_COMPACTED_RG_BYTES} (null when unset), injected so the policy
     *                    stays a pure function of its inputs; parsed here, so a bad value is refused when the
     *                    policy is built, before any partition is planned. An explicit row-group setting makes
     *                    the variable irrelevant, and then it is not read at all ({@code serve} reads it as a size
     *                    into that setting).
     * @throws IllegalArgumentException naming the variable if it matters and is not a byte count of at least 1 KiB
     */
    public CompactionPolicy(CompactionOptions options, String rowGroupEnv) {
        this.options = options;
        this.rowGroupEnv = options.rowGroupBytes().isPresent() ? OptionalLong.empty()
                : RowGroupSizing.parseEnv(rowGroupEnv);
    }

    public boolean isSealed(PartitionKey partition, Instant now) {
        Instant sealedAt = partition.hourStart().plusSeconds(3600).plus(options.grace());
        return !now.isBefore(sealedAt);
    }

    public PlanDecision decide(PartitionKey partition, long generation, List<ObjectInfo> liveFiles, Instant now) {
        if (!isSealed(partition, now)) {
            return PlanDecision.none(partition, "not sealed until "
                    + partition.hourStart().plusSeconds(3600).plus(options.grace()));
        }
        if (liveFiles.size() < 2) {
            return PlanDecision.none(partition, liveFiles.size() + " live file(s): nothing to merge");
        }
        boolean many = liveFiles.size() > options.minFiles();
        boolean anySmall = liveFiles.stream().anyMatch(f -> f.size() < options.smallFileBytes());
        if (!many && !anySmall) {
            return PlanDecision.none(partition, liveFiles.size() + " live files, none smaller than "
                    + options.smallFileBytes() + " bytes");
        }
        List<ObjectInfo> inputs = liveFiles.stream().sorted(Comparator.comparing(ObjectInfo::name)).toList();
        long bytesIn = inputs.stream().mapToLong(ObjectInfo::size).sum();
        long rowGroupBytes = RowGroupSizing.resolve(options.rowGroupBytes(), rowGroupEnv, bytesIn);
        CompactionPlan plan = new CompactionPlan(partition, generation, inputs, rowGroupBytes,
                options.sortBudgetBytes(), options.fanIn());
        return PlanDecision.compact(plan, many ? liveFiles.size() + " live files > min-files " + options.minFiles()
                : "small live files present");
    }
}
