package dev.ourios.bench.soak;

import java.util.Collection;

/**
 * An order-independent digest of a multiset of rows that can be added up: the row count and the two 64-bit sums of
 * {@link dev.ourios.compaction.verify.RowChecksum}, parsed from its documented {@code <rows>:<32 hex digits>} form.
 * Because the checksum is a sum of per-row hashes, the digest of a partition is the sum of the digests of its files,
 * so files written on different threads can be digested separately and combined.
 */
public record Digest(long rows, long sumA, long sumB) {
    public static final Digest EMPTY = new Digest(0, 0, 0);

    /** Parses {@code RowChecksum.value()}. */
    public static Digest parse(String checksum) {
        int colon = checksum.indexOf(':');
        String hex = checksum.substring(colon + 1);
        if (colon < 1 || hex.length() != 32) {
            throw new IllegalArgumentException("not a row checksum: " + checksum);
        }
        return new Digest(Long.parseLong(checksum.substring(0, colon)), Long.parseUnsignedLong(hex.substring(0, 16), 16),
                Long.parseUnsignedLong(hex.substring(16), 16));
    }

    public Digest plus(Digest o) {
        return new Digest(rows + o.rows, sumA + o.sumA, sumB + o.sumB);
    }

    public static Digest sum(Collection<Digest> ds) {
        return ds.stream().reduce(EMPTY, Digest::plus);
    }

    @Override
    public String toString() {
        return rows + ":" + String.format("%016x%016x", sumA, sumB);
    }
}
