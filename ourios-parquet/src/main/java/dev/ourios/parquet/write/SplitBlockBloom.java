package dev.ourios.parquet.write;

import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import java.util.Arrays;
import org.apache.parquet.io.api.Binary;

/**
 * One column chunk's split-block bloom filter, built here instead of inside parquet-java's column writer, with the
 * same bits: the Parquet algorithm (XXH64 — parquet-java's hasher for longs, {@link XxHash64} in place for byte
 * ranges, which parquet-java copies first — 8 salted bits in one 256-bit block) over an {@code int[]}. A value
 * equal to the one inserted just before is skipped — inserting is idempotent, so the bits are unchanged — which in
 * a sorted file skips most of the service name, {@code template_id} and repeated trace and span ids. parquet-java's
 * filter hashes and inserts every value through an {@code IntBuffer} view, a large share of a compaction's
 * column-writer time.
 */
final class SplitBlockBloom {
    /** Parquet's salt constants (parquet-format BloomFilter.md, parquet-java BlockSplitBloomFilter). */
    private static final int[] SALT = {0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b,
            0x9efc4947, 0x5c6bfb31};
    private static final int WORDS_PER_BLOCK = 8;

    private final int bytes;
    private final int[] words;
    private final long blocks;
    /** parquet-java's hash functions (stateless apart from a scratch buffer): the hashes must be its hashes. */
    private final BlockSplitBloomFilter hasher = new BlockSplitBloomFilter(BlockSplitBloomFilter.LOWER_BOUND_BYTES);
    private boolean hasLast;
    private long lastLong;
    private Object lastConstant;
    private byte[] lastBytes = new byte[32];
    private int lastLength = -1;

    /**
     * A filter of {@code bytes} bytes, a size parquet-java's filter chose: a power of two, or its cap, which need
     * not be whole blocks (parquet-java then leaves the tail unused, and so does this).
     */
    SplitBlockBloom(int bytes) {
        if (bytes < WORDS_PER_BLOCK * 4) {
            throw new IllegalArgumentException("bloom filter size " + bytes + " is under one block");
        }
        this.bytes = bytes;
        this.blocks = bytes / (WORDS_PER_BLOCK * 4);
        this.words = new int[(int) blocks * WORDS_PER_BLOCK];
    }

    /**
     * The bitset size parquet-java gives a fixed filter for {@code ndv} distinct values at {@code fpp}, capped at
     * {@code maxBytes} (what its column writer would allocate).
     */
    static int sizeFor(long ndv, double fpp, int maxBytes) {
        return new BlockSplitBloomFilter(BlockSplitBloomFilter.optimalNumOfBits(ndv, fpp) / 8, maxBytes)
                .getBitsetSize();
    }

    /** The bitset size of parquet-java's filter without an NDV (its cap): what a column it cannot address got. */
    static int capSize(int maxBytes) {
        return new BlockSplitBloomFilter(maxBytes, maxBytes).getBitsetSize();
    }

    void add(long value) {
        if (hasLast && value == lastLong) {
            return;
        }
        hasLast = true;
        lastLong = value;
        insertHash(hasher.hash(value));
    }

    void add(Binary value) {
        if (value == lastConstant) {
            return;
        }
        java.nio.ByteBuffer view = value.toByteBuffer();
        if (view.hasArray()) {
            add(view.array(), view.arrayOffset() + view.position(), view.remaining(),
                    value.isBackingBytesReused() ? null : value);
        } else {
            byte[] copy = value.getBytes();
            add(copy, 0, copy.length, null);
        }
    }

    /**
     * Adds the bytes {@code a[off, off + len)}; {@code constant} (or null) stands for them while it lives, so a repeat
     * of the same instance costs one comparison.
     */
    void add(byte[] a, int off, int len, Object constant) {
        if (constant != null && constant == lastConstant) {
            return;
        }
        if (len == lastLength && Arrays.equals(lastBytes, 0, len, a, off, off + len)) {
            lastConstant = constant;
            return; // inserting the same value again would set the same bits
        }
        if (lastBytes.length < len) {
            lastBytes = new byte[Math.max(len, lastBytes.length * 2)];
        }
        System.arraycopy(a, off, lastBytes, 0, len);
        lastLength = len;
        lastConstant = constant;
        insertHash(XxHash64.hash(a, off, len));
    }

    private void insertHash(long hash) {
        int block = (int) (((hash >>> 32) * blocks) >> 32);
        int key = (int) hash;
        int base = block * WORDS_PER_BLOCK;
        for (int i = 0; i < WORDS_PER_BLOCK; i++) {
            words[base + i] |= 1 << ((key * SALT[i]) >>> 27);
        }
    }

    /** The filter as parquet-java writes it (its words little-endian). */
    BlockSplitBloomFilter toParquet() {
        byte[] out = new byte[bytes];
        for (int i = 0; i < words.length; i++) {
            int w = words[i];
            out[4 * i] = (byte) w;
            out[4 * i + 1] = (byte) (w >>> 8);
            out[4 * i + 2] = (byte) (w >>> 16);
            out[4 * i + 3] = (byte) (w >>> 24);
        }
        return new BlockSplitBloomFilter(out);
    }
}
