package dev.ourios.compaction.plan;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which partitions to compact, and which of their files (policy, pure: no I/O). Sealed: {@code now >= hour start +
 * 1 h + grace}. A one-file partition is never a candidate (nothing to merge).
 *
 * <p>Tiered, so that a late file does not rewrite its whole hour. A partition's <em>main</em> files are the band its
 * manifest names (docs/spec/storage.md, "The size band"), else its largest live compacted file; every other live
 * file is its <em>tail</em> (late ingest files, and the compacted tail an
 * earlier sweep made of them). While the tail's bytes are at most {@code max-tail-ratio} of the main file's, the main
 * file is left alone: a tail of two or more files is merged among itself into one file, a tail of one file is left
 * as it is. Once the tail outgrows the ratio, the whole partition is a candidate under the one-file rule. So after a
 * sweep a sealed partition holds one file, or its main file and one tail file no larger than the ratio allows.
 * Once the hour's UTC day is over (its grace included), a tail holding a file below {@code small-file-bytes} beside
 * one main file of at least that size is folded into it (the whole partition is rewritten once), so that an hour
 * large enough to stay hourly does not keep a small file for ever (RFC 0009's H4, per tenant); a band keeps its tail,
 * one file beside several.
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

    /** The hour's UTC day is over: {@code now >= day start + 24 h + grace} (its rollup period, storage.md 4.15). */
    boolean isDaySealed(PartitionKey partition, Instant now) {
        Instant dayStart = partition.hourStart().minusSeconds(3600L * partition.hour());
        return !now.isBefore(dayStart.plusSeconds(24 * 3600L).plus(options.grace()));
    }

    public PlanDecision decide(PartitionKey partition, long generation, List<ObjectInfo> liveFiles, Instant now) {
        return decide(partition, generation, liveFiles, List.of(), now);
    }

    /**
     * The decision for a partition whose manifest names {@code mainNames} as its main files (a band, empty when it
     * names none: the main file is then the largest live compacted file). A band whose names are not all live is
     * not taken as main files.
     */
    public PlanDecision decide(PartitionKey partition, long generation, List<ObjectInfo> liveFiles,
            List<String> mainNames, Instant now) {
        if (!isSealed(partition, now)) {
            return PlanDecision.none(partition, "not sealed until "
                    + partition.hourStart().plusSeconds(3600).plus(options.grace()));
        }
        if (liveFiles.size() < 2) {
            return PlanDecision.none(partition, liveFiles.size() + " live file(s): nothing to merge");
        }
        Set<String> main = mainFiles(liveFiles, mainNames);
        if (!main.isEmpty()) {
            List<ObjectInfo> tail = liveFiles.stream().filter(f -> !main.contains(f.name())).toList();
            long tailBytes = tail.stream().mapToLong(ObjectInfo::size).sum();
            long mainBytes = liveFiles.stream().filter(f -> main.contains(f.name())).mapToLong(ObjectInfo::size)
                    .sum();
            if (tailBytes <= options.maxTailRatio() * mainBytes) {
                String share = tail.size() + " late file(s) of " + tailBytes + " bytes beside the main "
                        + (main.size() == 1 ? "file's " : main.size() + " files' ") + mainBytes
                        + " (max-tail-ratio " + options.maxTailRatio() + ")";
                if (main.size() == 1 && mainBytes >= options.smallFileBytes() && isDaySealed(partition, now)
                        && tail.stream().anyMatch(f -> f.size() < options.smallFileBytes())) {
                    return PlanDecision.compact(plan(partition, generation, liveFiles), share + "; the hour's day "
                            + "is over and its tail holds a file below small-file-bytes: folded into the main file");
                }
                if (tail.size() < 2) {
                    return PlanDecision.none(partition, share);
                }
                if (tailBytes > options.maxFileBytes()
                        && tail.stream().allMatch(f -> FileNames.isCompactedFile(f.name()))) {
                    // Merged, they would be written as a band again: nothing gained until a late file joins them.
                    return PlanDecision.none(partition, share + "; the compacted tail already passes max-file-bytes "
                            + options.maxFileBytes());
                }
                return PlanDecision.compact(plan(partition, generation, tail), share + ": merging the tail");
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

    /**
     * The names of the main files: the manifest's band when every name of it is live, else the largest live compacted
     * file (equal sizes: the greatest name), else none.
     */
    private static Set<String> mainFiles(List<ObjectInfo> liveFiles, List<String> mainNames) {
        Set<String> live = new HashSet<>();
        liveFiles.forEach(f -> live.add(f.name()));
        if (!mainNames.isEmpty() && live.containsAll(mainNames)) {
            return new HashSet<>(mainNames);
        }
        return liveFiles.stream().filter(f -> FileNames.isCompactedFile(f.name()))
                .max(Comparator.comparingLong(ObjectInfo::size).thenComparing(ObjectInfo::name))
                .map(f -> Set.of(f.name())).orElse(Set.of());
    }

    /** Inputs in sorted-name order (their input ordinals), the row-group threshold resolved from their bytes. */
    private CompactionPlan plan(PartitionKey partition, long generation, List<ObjectInfo> files) {
        List<ObjectInfo> inputs = files.stream().sorted(Comparator.comparing(ObjectInfo::name)).toList();
        long bytesIn = inputs.stream().mapToLong(ObjectInfo::size).sum();
        long rowGroupBytes = RowGroupSizing.resolve(options.rowGroupBytes(), bytesIn, options.maxFileBytes());
        return new CompactionPlan(partition, generation, inputs, rowGroupBytes, options.sortBudgetBytes(),
                options.fanIn(), options.maxFileBytes());
    }
}
