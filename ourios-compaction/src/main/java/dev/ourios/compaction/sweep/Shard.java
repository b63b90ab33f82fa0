package dev.ourios.compaction.sweep;

import dev.ourios.compaction.share.ShareProcesses;
import dev.ourios.core.PartitionKey;

/**
 * One of {@code count} disjoint slices of the partition space, for running several compactors side by side
 * without them racing for the same partitions ({@code --shard index/count}). A partition belongs to the shard
 * whose index is the FNV-1a 64 hash of its tenant id and hour label modulo {@code count}: an explicit hash rather
 * than {@code hashCode()}, so every process, JVM and future implementation agrees on the split.
 *
 * <p>Sharding is an optimisation, not a safety mechanism: overlapping or missing shards are still correct,
 * because commits are create-only and a lost race is a noop.
 */
public record Shard(int index, int count) {
    /** Everything: the default when no {@code --shard} is given. */
    public static final Shard ALL = new Shard(0, 1);

    public Shard {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("--shard must look like i/N with 0 <= i < N (got " + index + "/"
                    + count + ")");
        }
    }

    /** Parses {@code i/N}; anything else is an error naming the flag and the value. */
    public static Shard parse(String text) {
        String bad = "--shard must look like i/N with 0 <= i < N (got '" + text + "')";
        if (text == null || !text.matches("\\d{1,9}/\\d{1,9}")) {
            throw new IllegalArgumentException(bad);
        }
        int slash = text.indexOf('/');
        int i = Integer.parseInt(text.substring(0, slash));
        int n = Integer.parseInt(text.substring(slash + 1));
        if (n < 1 || i >= n) {
            throw new IllegalArgumentException(bad);
        }
        return new Shard(i, n);
    }

    public boolean owns(PartitionKey p) {
        return count == 1 || Long.remainderUnsigned(hash(p), count) == index;
    }

    /** The partition's hash (FNV-1a 64, {@link PartitionKey#shardHash}). */
    static long hash(PartitionKey p) {
        return p.shardHash();
    }

    /** This shard as one of the compactor processes that share large rewrites (storage.md §4.14). */
    public ShareProcesses processes() {
        return new ShareProcesses(index, count);
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
