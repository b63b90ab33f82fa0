package dev.ourios.parquet.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.Random;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

/** The shredder's bloom filters must be bit for bit parquet-java's, repeats skipped or not. */
class SplitBlockBloomTest {
    @Test
    void same_bits_as_parquet_java_for_longs_and_binaries_with_repeats() throws Exception {
        long seed = System.nanoTime();
        System.out.println("SplitBlockBloomTest seed " + seed);
        Random rnd = new Random(seed);
        for (int round = 0; round < 20; round++) {
            long ndv = 1 + rnd.nextInt(200_000);
            // The cap is rowGroupBytes / 64 in the product: not a power of two, not whole blocks.
            int max = rnd.nextBoolean() ? 1 << (12 + rnd.nextInt(9)) : 4096 + rnd.nextInt(1 << 20);
            int bytes = SplitBlockBloom.sizeFor(ndv, 0.01, max);
            BlockSplitBloomFilter theirs = new BlockSplitBloomFilter(
                    BlockSplitBloomFilter.optimalNumOfBits(ndv, 0.01) / 8, max);
            assertEquals(theirs.getBitsetSize(), bytes, "seed " + seed);
            SplitBlockBloom longs = new SplitBlockBloom(bytes);
            SplitBlockBloom binaries = new SplitBlockBloom(bytes);
            BlockSplitBloomFilter theirBinaries = new BlockSplitBloomFilter(
                    BlockSplitBloomFilter.optimalNumOfBits(ndv, 0.01) / 8, max);
            byte[] reused = new byte[64];
            Binary constant = Binary.fromConstantByteArray(new byte[] {1, 2, 3});
            long v = rnd.nextLong();
            for (int i = 0; i < 5000; i++) {
                if (rnd.nextInt(3) > 0) { // runs of repeats, as in a sorted file
                    v = rnd.nextInt(4) == 0 ? rnd.nextLong() : rnd.nextInt(100);
                }
                longs.add(v);
                theirs.insertHash(theirs.hash(v));
                Binary b;
                if (rnd.nextInt(4) == 0) {
                    b = constant;
                } else {
                    int off = rnd.nextInt(8);
                    int len = rnd.nextInt(40);
                    if (rnd.nextBoolean()) { // new content in the same reused array
                        for (int k = 0; k < len; k++) {
                            reused[off + k] = (byte) rnd.nextInt(3);
                        }
                    }
                    b = Binary.fromReusedByteArray(reused, off, len);
                }
                if (b != constant && rnd.nextBoolean()) {
                    binaries.add(reused, b.toByteBuffer().position(), b.length(), null); // the shredder's way
                } else {
                    binaries.add(b);
                }
                theirBinaries.insertHash(theirBinaries.hash(b));
            }
            assertArrayEquals(bits(theirs), bits(longs.toParquet()), "seed " + seed);
            assertArrayEquals(bits(theirBinaries), bits(binaries.toParquet()), "seed " + seed);
            assertTrue(longs.toParquet().findHash(theirs.hash(v)), "seed " + seed);
        }
    }

    @Test
    void xxhash64_is_parquet_javas_hash_at_every_length_and_offset() {
        long seed = System.nanoTime();
        System.out.println("SplitBlockBloomTest seed " + seed);
        Random rnd = new Random(seed);
        BlockSplitBloomFilter theirs = new BlockSplitBloomFilter(BlockSplitBloomFilter.LOWER_BOUND_BYTES);
        byte[] buf = new byte[300];
        for (int i = 0; i < 5000; i++) {
            rnd.nextBytes(buf);
            int len = rnd.nextInt(260);
            int off = rnd.nextInt(buf.length - len + 1);
            assertEquals(theirs.hash(Binary.fromConstantByteArray(buf, off, len)), XxHash64.hash(buf, off, len),
                    "seed " + seed + " length " + len + " offset " + off);
        }
    }

    private static byte[] bits(BlockSplitBloomFilter f) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        f.writeTo(out);
        return out.toByteArray();
    }
}
