package dev.ourios.compaction.plan;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which partitions to compact, and which of their files (policy, pure: no I/O). Sealed: {@code now >= hour start +
 * 1 h + grace}. A one-file partition is never a candidate (nothing to merge).
 *
 * <p>Tiered, so that a late file does not rewrite its whole hour. A partition's <em>main</em> file is its largest
 * live compacted file; every other live file is its <em>tail</em> (late ingest files, and the compacted tail an
 * earlier sweep made of them). While the tail's bytes are at most {@code max-tail-ratio} of the main file's, the main
 * file is left alone: a tail of two or more files is merged among itself into one file, a tail of one file is left
 * as it is. Once the tail outgrows the ratio, the whole partition is a candidate under the one-file rule. So after a
 * sweep a sealed partition holds one file, or its main file and one tail file no larger than the ratio allows.
 *
 * <p>The one-file rule (a partition without a compacted file, or whose tail outgrew the ratio): candidate if more
 * than {@code min-files} live files or any live file smaller than {@code small-file-bytes}; every live file is an
 * input.
 */
public final class CompactionPolicy {
    private final CompactionOptions options;

    /**
     * @param options the sealing grace, the one-file and tail rules' thresholds, and the row-group setting (empty:
     *                adaptive; the application resolves {@code OURIOS_COMPACTED_RG_BYTES} into it)
     */
    public CompactionPolicy(CompactionOptions options) {
        this.options = options;
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
        Optional<ObjectInfo> main = liveFiles.stream().filter(f -> FileNames.isCompactedFile(f.name()))
                .max(Comparator.comparingLong(ObjectInfo::size).thenComparing(ObjectInfo::name));
        if (main.isPresent()) {
            List<ObjectInfo> tail = liveFiles.stream().filter(f -> f != main.get()).toList();
            long tailBytes = tail.stream().mapToLong(ObjectInfo::size).sum();
            if (tailBytes <= options.maxTailRatio() * main.get().size()) {
                String share = tail.size() + " late file(s) of " + tailBytes + " bytes beside the main file's "
                        + main.get().size() + " (max-tail-ratio " + options.maxTailRatio() + ")";
                return tail.size() < 2 ? PlanDecision.none(partition, share)
                        : PlanDecision.compact(plan(partition, generation, tail), share + ": merging the tail");
            }
        }
        boolean many = liveFiles.size() > options.minFiles();
        boolean anySmall = liveFiles.stream().anyMatch(f -> f.size() < options.smallFileBytes());
        if (!many && !anySmall) {
            return PlanDecision.none(partition, liveFiles.size() + " live files, none smaller than "
                    + options.smallFileBytes() + " bytes");
        }
        return PlanDecision.compact(plan(partition, generation, liveFiles),
                many ? liveFiles.size() + " live files > min-files " + options.minFiles() : "small live files present");
    }

    /** Inputs in sorted-name order (their input ordinals), the row-group threshold resolved from their bytes. */
    private CompactionPlan plan(PartitionKey partition, long generation, List<ObjectInfo> files) {
        List<ObjectInfo> inputs = files.stream().sorted(Comparator.comparing(ObjectInfo::name)).toList();
        long bytesIn = inputs.stream().mapToLong(ObjectInfo::size).sum();
        long rowGroupBytes = RowGroupSizing.resolve(options.rowGroupBytes(), bytesIn);
        return new CompactionPlan(partition, generation, inputs, rowGroupBytes, options.sortBudgetBytes(),
                options.fanIn());
    }
}
