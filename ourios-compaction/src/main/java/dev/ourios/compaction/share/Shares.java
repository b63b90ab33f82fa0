package dev.ourios.compaction.share;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A rewrite's shares (docs/spec/storage.md, "Shares of a large rewrite"): contiguous ranges of the sort key split by
 * ascending cut keys; share {@code j} holds the keys from cut {@code j} (inclusive; none for share 0) to cut
 * {@code j + 1} (exclusive; none for the last share). Every key is in exactly one share. Immutable.
 */
public final class Shares {
    private static final Shares ONE = new Shares(List.of());

    private final List<ShareKey> cuts;

    private Shares(List<ShareKey> cuts) {
        this.cuts = List.copyOf(cuts);
    }

    /** One share holding every key: a rewrite that is not split. */
    public static Shares one() {
        return ONE;
    }

    /** The shares bounded by {@code cuts}, which must ascend strictly. */
    public static Shares cutAt(List<ShareKey> cuts) {
        for (int i = 1; i < cuts.size(); i++) {
            if (cuts.get(i - 1).compareTo(cuts.get(i)) >= 0) {
                throw new IllegalArgumentException("BUG: share cuts must ascend strictly: " + cuts);
            }
        }
        return cuts.isEmpty() ? ONE : new Shares(cuts);
    }

    public int count() {
        return cuts.size() + 1;
    }

    /** The lower bound of share {@code j} (1 ≤ j &lt; count): its first key. */
    public ShareKey cut(int j) {
        return cuts.get(j - 1);
    }

    public List<ShareKey> cuts() {
        return cuts;
    }

    /** The share that holds the key ({@code service}, {@code time}). */
    public int shareOf(String service, long time) {
        int lo = 0; // the answer is the number of cuts at or below the key
        int hi = cuts.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            ShareKey c = cuts.get(mid);
            if (ShareKey.compare(c.service(), c.time(), service, time) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The shares each of {@code workers} workers takes: worker {@code w} of {@code P} the shares
     * {@code floor(w K / P)} to {@code floor((w + 1) K / P) − 1}, with {@code P} at most the shares' count (a worker
     * without a share would read the inputs for nothing).
     */
    public List<Group> groups(int workers) {
        return new Group(0, count()).split(workers);
    }

    /** The shares {@code from} (inclusive) to {@code to} (exclusive) of one worker. */
    public record Group(int from, int to) {
        public Group {
            if (from < 0 || to <= from) {
                throw new IllegalArgumentException("BUG: an empty share group [" + from + ", " + to + ")");
            }
        }

        public boolean holds(int share) {
            return share >= from && share < to;
        }

        public int size() {
            return to - from;
        }

        /**
         * This group's shares split between {@code workers} workers by the rule of {@link Shares#groups}: worker
         * {@code w} of {@code P = min(workers, size)} takes {@code from + floor(w size / P)} to
         * {@code from + floor((w + 1) size / P) − 1}.
         */
        public List<Group> split(int workers) {
            int k = size();
            int p = Math.max(1, Math.min(workers, k));
            List<Group> groups = new ArrayList<>(p);
            for (int w = 0; w < p; w++) {
                groups.add(new Group(from + (int) ((long) w * k / p), from + (int) ((long) (w + 1) * k / p)));
            }
            return groups;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Shares s && cuts.equals(s.cuts);
    }

    @Override
    public int hashCode() {
        return Objects.hash(cuts);
    }

    @Override
    public String toString() {
        return count() + " shares cut at " + cuts;
    }
}
