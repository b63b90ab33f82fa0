package dev.ourios.parquet.index;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds the {@link TokenBloom} of one row group after another, in bounded memory and deterministically. Every key is
 * inserted into one build filter of {@code 15 * 2^k} blocks, about four times the largest filter; at the group's end,
 * the number of distinct keys is estimated from the build filter's set bits (a function of the bits alone, in
 * {@link StrictMath}), the size is the smallest divisor of the build size giving {@code bitsPerKey} bits per
 * estimated key (at most the largest filter), and the build filter is folded to it. A key's block is
 * {@code floor(h * blocks / 2^32)} for the upper 32 bits {@code h} of its hash, so in a filter of {@code blocks / f}
 * blocks ({@code f} dividing {@code blocks}) it is its block divided by {@code f}: OR-ing each run of {@code f}
 * neighbouring blocks gives exactly the filter those keys would have built at that size. The divisors of
 * {@code 15 * 2^k} from four up to a quarter of it lie at most a third apart, so a filter of four blocks or more has
 * at most a third more bits than its keys need.
 * The bytes are the same whatever the order of insertion and whichever thread inserted.
 */
final class TokenBloomBuilder {
    /** The build filter is {@code 15 * 2^k} blocks: its divisors are many and close together. */
    private static final int ODD_PART = 15;
    /** The build filter is about this many times the largest filter. */
    private static final int BUILD_FACTOR = 4;

    private final int buildBlocks;
    /** The sizes a group's filter may have, in blocks: the divisors of the build size up to the cap, ascending. */
    private final int[] sizes;
    private final double bitsPerKey;
    private final int[] words;
    private boolean empty = true;
    /**
     * Keys inserted since the group began, one per slot of their low bits (0: none; a key hashing to 0 is always
     * inserted): a repeated key is skipped without touching the build filter, whose words (four times the largest
     * filter) are rarely in a cache. Skipping changes no bit: the key's bits are set already.
     */
    private static final int RECENT = 4096;
    private final long[] recent = new long[RECENT];

    /** {@code capBytes}: the largest filter (its size is the largest allowed size not above it, at least a block). */
    TokenBloomBuilder(int capBytes, double bitsPerKey) {
        if (bitsPerKey <= 0) {
            throw new IllegalArgumentException("bitsPerKey must be positive, got " + bitsPerKey);
        }
        int capBlocks = Math.max(1, capBytes / TokenBloom.BLOCK_BYTES);
        this.buildBlocks = buildBlocks((long) capBlocks * BUILD_FACTOR);
        List<Integer> allowed = new ArrayList<>();
        for (int power = 1; power <= buildBlocks; power <<= 1) {
            for (int odd : new int[] {1, 3, 5, 15}) {
                long d = (long) odd * power;
                if (d <= capBlocks && buildBlocks % d == 0) {
                    allowed.add((int) d);
                }
            }
        }
        this.sizes = allowed.stream().mapToInt(Integer::intValue).sorted().distinct().toArray();
        this.bitsPerKey = bitsPerKey;
        this.words = new int[buildBlocks * TokenBloom.WORDS_PER_BLOCK];
    }

    /** The largest {@code 15 * 2^k} not above {@code most} (the largest power of two when that is below 15). */
    static int buildBlocks(long most) {
        long b = Long.highestOneBit(Math.max(1, most));
        if (most >= ODD_PART) {
            b = ODD_PART * Long.highestOneBit(most / ODD_PART);
        }
        return (int) b;
    }

    /** The largest filter this builder writes, in bytes. */
    int maxFilterBytes() {
        return sizes[sizes.length - 1] * TokenBloom.BLOCK_BYTES;
    }

    void add(long hash) {
        int slot = (int) hash & (RECENT - 1);
        if (recent[slot] == hash && hash != 0) {
            return; // inserted since the group began: its bits are set (most tokens of a group repeat)
        }
        recent[slot] = hash;
        int base = TokenBloom.block(hash, buildBlocks) * TokenBloom.WORDS_PER_BLOCK;
        for (int i = 0; i < TokenBloom.WORDS_PER_BLOCK; i++) {
            words[base + i] |= TokenBloom.mask(hash, i);
        }
        empty = false;
    }

    /** Appends the group's filter to {@code out}, returns its length in bytes, and starts the next group empty. */
    int finishGroup(ByteArrayOutputStream out) {
        int blocks = empty ? 1 : blocksFor(estimatedKeys());
        int wordsKept = blocks * TokenBloom.WORDS_PER_BLOCK;
        int fold = buildBlocks / blocks;
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
        Arrays.fill(recent, 0);
        empty = true;
        return bytes.length;
    }

    /**
     * Distinct keys inserted, estimated from the set bits: each key sets one bit in each of the 8 words of one of
     * {@code buildBlocks} blocks, so a given bit stays clear after n keys with probability {@code (1 - 8/m)^n}, m the
     * filter's bits. Saturated: more than the build filter can tell.
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

    /** The smallest allowed size holding {@code bitsPerKey} bits per key, else the largest allowed size. */
    private int blocksFor(double keys) {
        double bits = keys * bitsPerKey;
        for (int s : sizes) {
            if ((double) s * TokenBloom.BLOCK_BYTES * 8 >= bits) {
                return s;
            }
        }
        return sizes[sizes.length - 1];
    }
}
