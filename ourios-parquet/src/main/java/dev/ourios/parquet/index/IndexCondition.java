package dev.ourios.parquet.index;

import java.util.Arrays;
import java.util.List;

/**
 * What a query needs of a row group's token index: a tree over the keys ({@link TokenKeys}) every matching row holds.
 * A row group whose filter rules the condition out cannot hold a matching row and is not read. The query side builds
 * it so that it is implied by the query (it may only be weaker): {@link #ANY} wherever the index cannot decide.
 */
public sealed interface IndexCondition {

    /** Every row group may match (nothing the index can decide). */
    IndexCondition ANY = new Any();

    /** True if a group whose filter answers {@code mayContain} may hold a matching row. */
    boolean mayMatch(KeyTest mayContain);

    /** A filter's answer for one key: false only when the key is certainly absent. */
    @FunctionalInterface
    interface KeyTest {
        boolean mayContain(long hash);
    }

    /** Whether this condition can rule anything out. */
    default boolean prunes() {
        return !(this instanceof Any);
    }

    record Any() implements IndexCondition {
        @Override
        public boolean mayMatch(KeyTest mayContain) {
            return true;
        }
    }

    /** Every one of these keys occurs in a matching row (the tokens of a phrase, an attribute value). */
    record AllKeys(long[] hashes) implements IndexCondition {
        public AllKeys {
            hashes = hashes.clone();
            if (hashes.length == 0) {
                throw new IllegalArgumentException("no keys");
            }
        }

        @Override
        public boolean mayMatch(KeyTest mayContain) {
            for (long h : hashes) {
                if (!mayContain.mayContain(h)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof AllKeys a && Arrays.equals(a.hashes, hashes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(hashes);
        }

        @Override
        public String toString() {
            return "AllKeys" + Arrays.toString(hashes);
        }
    }

    /** Every part holds. */
    record And(List<IndexCondition> parts) implements IndexCondition {
        public And {
            parts = List.copyOf(parts);
        }

        @Override
        public boolean mayMatch(KeyTest mayContain) {
            for (IndexCondition p : parts) {
                if (!p.mayMatch(mayContain)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** At least one part holds. */
    record Or(List<IndexCondition> parts) implements IndexCondition {
        public Or {
            parts = List.copyOf(parts);
        }

        @Override
        public boolean mayMatch(KeyTest mayContain) {
            for (IndexCondition p : parts) {
                if (p.mayMatch(mayContain)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** {@code a AND b}, simplified: ANY drops out. */
    static IndexCondition and(List<IndexCondition> parts) {
        List<IndexCondition> kept = parts.stream().filter(IndexCondition::prunes).toList();
        return kept.isEmpty() ? ANY : kept.size() == 1 ? kept.get(0) : new And(kept);
    }

    /** {@code a OR b}, simplified: one ANY part makes the whole ANY. */
    static IndexCondition or(List<IndexCondition> parts) {
        if (parts.isEmpty() || parts.stream().anyMatch(p -> !p.prunes())) {
            return ANY;
        }
        return parts.size() == 1 ? parts.get(0) : new Or(parts);
    }
}
