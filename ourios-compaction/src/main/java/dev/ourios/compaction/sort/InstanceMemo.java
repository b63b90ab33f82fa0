package dev.ourios.compaction.sort;

import java.util.Arrays;

/**
 * Remembers the ids of recently seen {@code String} instances, by reference, in front of a {@code Map<String,
 * Integer>}. The input readers hand out one instance per dictionary entry of a column chunk, so nearly every lookup
 * of a string table is an instance seen before (a few hundred instances against hundreds of thousands of lookups
 * per run), yet a map lookup still compares the characters of an equal, different instance, and the compacting
 * thread would pay that for every low-cardinality value of every row. Direct-mapped on the string's cached hash
 * code; a collision only costs a map lookup. Holds at most {@link #SLOTS} references.
 *
 * <p>Not thread-safe.
 */
final class InstanceMemo {
    static final int SLOTS = 256;
    /** Returned by {@link #get} for an instance not remembered. */
    static final int ABSENT = Integer.MIN_VALUE;

    private final String[] instances = new String[SLOTS];
    private final int[] ids = new int[SLOTS];

    /** The id remembered for this very instance, or {@link #ABSENT}. */
    int get(String s) {
        int slot = s.hashCode() & (SLOTS - 1);
        return instances[slot] == s ? ids[slot] : ABSENT;
    }

    void put(String s, int id) {
        int slot = s.hashCode() & (SLOTS - 1);
        instances[slot] = s;
        ids[slot] = id;
    }

    /** Forgets every instance (the ids they map to are about to mean something else). */
    void clear() {
        Arrays.fill(instances, null);
    }
}
