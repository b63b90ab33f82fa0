package dev.ourios.compaction.share;

import dev.ourios.core.PartitionKey;

/**
 * This compactor as process {@code index} of {@code count} sharded compactors (docs/spec/storage.md, "Sharing one
 * rewrite between compactor processes"): which group of a shared rewrite's shares it writes. Group {@code g} of a
 * partition goes to the process of shard {@code (o + g) mod count}, {@code o} being the partition's own shard, so the
 * owner writes group 0 and the groups of small share counts spread over the processes.
 */
public record ShareProcesses(int index, int count) {
    /** One process: nothing is shared. */
    public static final ShareProcesses ONE = new ShareProcesses(0, 1);

    public ShareProcesses {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("BUG: process " + index + " of " + count);
        }
    }

    /** The groups one rewrite of {@code shares} shares forms between these processes. */
    public int groups(int shares) {
        return Math.min(count, shares);
    }

    /** The group of {@code partition}'s shared rewrite this process writes, or -1 when it writes none. */
    public int groupOf(PartitionKey partition, int groups) {
        int owner = (int) Long.remainderUnsigned(partition.shardHash(), count);
        int g = Math.floorMod(index - owner, count);
        return g < groups ? g : -1;
    }
}
