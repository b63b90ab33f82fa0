package dev.ourios.parquet.index;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * Builds the {@link TokenBloom} of one row group after another, in bounded memory and deterministically. Every key is
 * inserted into one filter of the cap size (a power of two of blocks); at the group's end, the number of distinct
 * keys is estimated from the filter's set bits (a function of the bits alone, in {@link StrictMath}), the size is the
 * smallest power of two of blocks giving {@code bitsPerKey} bits per estimated key (at most the cap), and the filter
 * is folded to it: with power-of-two block counts, a key's block in a filter of half the blocks is its block shifted
 * right by one, so OR-ing each pair of neighbouring blocks gives exactly the filter those keys would have built at
 * half the size. The bytes are therefore the same whatever the order of insertion and whichever thread inserted.
 */
final class TokenBloomBuilder {
    private final int capBlocks;
    private final double bitsPerKey;
    private final int[] words;
    private boolean empty = true;

    /** {@code capBytes}: the largest filter, rounded down to a power of two of blocks (at least one block). */
    TokenBloomBuilder(int capBytes, double bitsPerKey) {
        if (bitsPerKey <= 0) {
            throw new IllegalArgumentException("bitsPerKey must be positive, got " + bitsPerKey);
        }
        this.capBlocks = Integer.highestOneBit(Math.max(1, capBytes / TokenBloom.BLOCK_BYTES));
        this.bitsPerKey = bitsPerKey;
        this.words = new int[capBlocks * TokenBloom.WORDS_PER_BLOCK];
    }

    void add(long hash) {
        int base = TokenBloom.block(hash, capBlocks) * TokenBloom.WORDS_PER_BLOCK;
        for (int i = 0; i < TokenBloom.WORDS_PER_BLOCK; i++) {
            words[base + i] |= TokenBloom.mask(hash, i);
        }
        empty = false;
    }

    /** Appends the group's filter to {@code out}, returns its length in bytes, and starts the next group empty. */
    int finishGroup(ByteArrayOutputStream out) {
        int blocks = empty ? 1 : blocksFor(estimatedKeys());
        int wordsKept = blocks * TokenBloom.WORDS_PER_BLOCK;
        int fold = capBlocks / blocks;
        byte[] bytes = new byte[wordsKept * 4];
        for (int b = 0; b < blocks; b++) {
            for (int i = 0; i < TokenBloom.WORDS_PER_BLOCK; i++) {
                int w = 0;
                for (int f = 0; f < fold; f++) {
                    w |= words[(b * fold + f) * TokenBloom.WORDS_PER_BLOCK + i];
                }
                int p = 4 * (b * TokenBloom.WORDS_PER_BLOCK + i);
                bytes[p] = (byte) w;
                bytes[p + 1] = (byte) (w >>> 8);
                bytes[p + 2] = (byte) (w >>> 16);
                bytes[p + 3] = (byte) (w >>> 24);
            }
        }
        out.writeBytes(bytes);
        Arrays.fill(words, 0);
        empty = true;
        return bytes.length;
    }

    /**
     * Distinct keys inserted, estimated from the set bits: each key sets one bit in each of the 8 words of one of
     * {@code capBlocks} blocks, so a given bit stays clear after n keys with probability {@code (1 - 8/m)^n}, m the
     * filter's bits. Saturated: more than the cap can tell.
     */
    private double estimatedKeys() {
        long set = 0;
        for (int w : words) {
            set += Integer.bitCount(w);
        }
        double m = (double) words.length * 32;
        if (set >= words.length * 32L) {
            return Double.POSITIVE_INFINITY;
        }
        return StrictMath.log(1 - set / m) / StrictMath.log(1 - 8 / m);
    }

    /**
     * The smallest power of two of blocks holding {@code bitsPerKey} bits per key, at most the cap. (The fold to it,
     * in {@link #finishGroup}, OR-s runs of {@code capBlocks / blocks} consecutive blocks: halving repeatedly.)
     */
    private int blocksFor(double keys) {
        double bits = keys * bitsPerKey;
        int blocks = 1;
        while (blocks < capBlocks && (double) blocks * TokenBloom.BLOCK_BYTES * 8 < bits) {
            blocks <<= 1;
        }
        return blocks;
    }
}
