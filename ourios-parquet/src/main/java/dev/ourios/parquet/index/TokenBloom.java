package dev.ourios.parquet.index;

/**
 * The token index's filter of one row group: a split-block bloom filter with Parquet's algorithm (parquet-format
 * BloomFilter.md: 256-bit blocks of eight 32-bit words, the block chosen by the hash's upper 32 bits, one bit per
 * word set by the lower 32 bits times a salt), stored as its words little-endian. Its block count is a power of two,
 * which lets a builder fill one filter of the cap size and fold it down once the group's keys are known (see
 * {@link TokenBloomBuilder}).
 */
public final class TokenBloom {
    static final int[] SALT = {0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b,
            0x9efc4947, 0x5c6bfb31};
    static final int WORDS_PER_BLOCK = 8;
    public static final int BLOCK_BYTES = WORDS_PER_BLOCK * 4;

    private TokenBloom() {
    }

    /** The block of {@code hash} in a filter of {@code blocks} blocks. */
    static int block(long hash, long blocks) {
        return (int) (((hash >>> 32) * blocks) >>> 32);
    }

    /** The bit {@code hash} sets in word {@code i} of its block. */
    static int mask(long hash, int i) {
        return 1 << (((int) hash * SALT[i]) >>> 27);
    }

    /**
     * Whether the filter in {@code filter[off, off + len)} may hold {@code hash} ({@code len} a positive multiple of
     * {@link #BLOCK_BYTES}): false means it certainly does not.
     */
    public static boolean mayContain(byte[] filter, int off, int len, long hash) {
        int base = off + block(hash, len / BLOCK_BYTES) * BLOCK_BYTES;
        for (int i = 0; i < WORDS_PER_BLOCK; i++) {
            int p = base + 4 * i;
            int word = (filter[p] & 0xff) | (filter[p + 1] & 0xff) << 8 | (filter[p + 2] & 0xff) << 16
                    | (filter[p + 3] & 0xff) << 24;
            if ((word & mask(hash, i)) == 0) {
                return false;
            }
        }
        return true;
    }
}
