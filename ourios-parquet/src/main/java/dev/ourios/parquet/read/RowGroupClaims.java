package dev.ourios.parquet.read;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The kept row groups of one file, handed out to the readers that share them ({@link LogFileReader#openPartner}):
 * each group goes to exactly one reader, the first to ask, in file order. A reader alone claims every group in turn.
 */
final class RowGroupClaims {
    private final int groups;
    private final int totalGroups;
    private final AtomicInteger next = new AtomicInteger();

    /** {@code groups} kept of the file's {@code totalGroups}. */
    RowGroupClaims(int groups, int totalGroups) {
        this.groups = groups;
        this.totalGroups = totalGroups;
    }

    /** The index (among the kept groups) of the next unclaimed group, now the caller's; {@code groups} when none. */
    int claim() {
        int g = next.getAndIncrement();
        return g < groups ? g : groups;
    }

    int groups() {
        return groups;
    }

    int totalGroups() {
        return totalGroups;
    }

    boolean anyLeft() {
        return next.get() < groups;
    }

    /** The first group nobody has claimed yet ({@code groups} when none is left). */
    int firstUnclaimed() {
        return Math.min(next.get(), groups);
    }
}
