package dev.ourios.parquet.index;

/**
 * A file's token index as a reader holds it: where it lies and its verified bytes. Immutable, shared by the readers
 * of one file (the file is immutable and uniquely named).
 */
public final class TokenIndex {
    private final int[] offsets;
    private final int[] lengths;
    private final byte[] region;

    public TokenIndex(TokenIndexRegion.Location location, byte[] region) {
        if (!location.verifies(region)) {
            throw new IllegalArgumentException("the region does not match its location's checksum");
        }
        this.lengths = location.lengths();
        this.offsets = new int[lengths.length];
        for (int g = 1; g < lengths.length; g++) {
            offsets[g] = offsets[g - 1] + lengths[g - 1];
        }
        this.region = region;
    }

    /** Row groups the index covers. */
    public int groups() {
        return lengths.length;
    }

    /** Bytes held. */
    public int bytes() {
        return region.length;
    }

    /** Whether row group {@code group} may hold a row satisfying {@code c} (a group without a filter always may). */
    public boolean mayMatch(int group, IndexCondition c) {
        int len = lengths[group];
        if (len == 0) {
            return true;
        }
        int off = offsets[group];
        return c.mayMatch(hash -> TokenBloom.mayContain(region, off, len, hash));
    }
}
