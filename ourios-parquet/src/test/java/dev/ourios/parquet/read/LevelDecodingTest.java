package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ourios.parquet.write.WriterTestAccess;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.bitpacking.BitPacking;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.api.Test;

/** Our bulk run decoders against parquet-java's encoders, on seeded random runs of every bit width. */
class LevelDecodingTest {

    @Test
    void rleHybridDecodesWhatParquetJavaEncodes() throws Exception {
        forRandomRuns(400, 33, 3000, (width, values, what) -> {
            RunLengthBitPackingHybridEncoder enc = new RunLengthBitPackingHybridEncoder(width, 64, 1 << 16,
                    HeapByteBufferAllocator.getInstance());
            for (int v : values) {
                enc.writeInt(v);
            }
            byte[] bytes = enc.toBytes().toByteArray();
            byte[] padded = new byte[bytes.length + 5];
            System.arraycopy(bytes, 0, padded, 3, bytes.length);
            int[] out = new int[values.length];
            LevelDecoding.rleHybrid(padded, 3, 3 + bytes.length, width, out, values.length);
            assertArrayEquals(values, out, what);
        });
    }

    @Test
    void bitPackedDecodesWhatParquetJavaEncodes() throws Exception {
        // Widths up to 8: BIT_PACKED is only ever used for levels.
        forRandomRuns(200, 9, 500, (width, values, what) -> {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            BitPacking.BitPackingWriter w = BitPacking.getBitPackingWriter(width, bytes);
            for (int v : values) {
                w.write(v);
            }
            w.finish();
            byte[] b = bytes.toByteArray();
            int[] out = new int[values.length];
            LevelDecoding.bitPacked(b, 0, width, out, values.length);
            assertArrayEquals(values, out, what);
        });
    }

    @Test
    void ourEncoderWritesWhatParquetJavaDecodes() throws Exception {
        forRandomRuns(400, 33, 3000, (width, values, what) -> {
            byte[] bytes = WriterTestAccess.rleHybrid(values, values.length, width);
            var decoder = new RunLengthBitPackingHybridDecoder(width, ByteBufferInputStream.wrap(ByteBuffer.wrap(bytes)));
            int[] theirs = new int[values.length];
            for (int i = 0; i < values.length; i++) {
                theirs[i] = decoder.readInt();
            }
            assertArrayEquals(values, theirs, what);
            int[] ours = new int[values.length];
            LevelDecoding.rleHybrid(bytes, 0, bytes.length, width, ours, values.length);
            assertArrayEquals(values, ours, what);
        });
    }

    @Test
    void hybridRunsSkipCountAndReadWhatTheRunsHold() throws Exception {
        forRandomRuns(400, 33, 3000, (width, values, what) -> {
            byte[] bytes = WriterTestAccess.rleHybrid(values, values.length, width);
            HybridRuns runs = new HybridRuns();
            runs.reset(bytes, 0, bytes.length, width);
            Random steps = new Random(values.length * 31L + width);
            int at = 0;
            while (at < values.length) {
                int n = Math.min(values.length - at, 1 + steps.nextInt(100));
                switch (steps.nextInt(3)) {
                    case 0 -> {
                        int[] out = new int[n + 2];
                        runs.read(out, 2, n);
                        assertArrayEquals(Arrays.copyOfRange(values, at, at + n), Arrays.copyOfRange(out, 2, n + 2),
                                what + " read at " + at);
                    }
                    case 1 -> {
                        if (steps.nextBoolean()) {
                            runs.skip(n);
                        } else { // up to the (k + 1)-th value equal to the one here, within n values
                            int target = values[at];
                            int k = steps.nextInt(5);
                            int expected = 0;
                            int seen = 0;
                            while (expected < n && !(values[at + expected] == target && seen == k)) {
                                seen += values[at + expected] == target ? 1 : 0;
                                expected++;
                            }
                            assertEquals(expected, runs.skipBefore(target, k, n), what + " skipped before at " + at);
                            assertEquals(seen, runs.passed(), what + " passed at " + at);
                            n = expected;
                        }
                    }
                    default -> {
                        int target = values[at];
                        int expected = 0;
                        for (int i = at; i < at + n; i++) {
                            expected += values[i] == target ? 1 : 0;
                        }
                        assertEquals(expected, runs.skipCounting(n, target), what + " counted at " + at);
                    }
                }
                at += n;
            }
        });
    }

    @FunctionalInterface
    private interface RunCheck {
        void check(int width, int[] values, String what) throws Exception;
    }

    /** {@code iterations} seeded random run sequences of widths below {@code widths}; the seed is printed. */
    private static void forRandomRuns(int iterations, int widths, int maxCount, RunCheck check) throws Exception {
        long seed = System.nanoTime();
        System.out.println("LevelDecodingTest seed " + seed);
        Random rnd = new Random(seed);
        for (int iteration = 0; iteration < iterations; iteration++) {
            int width = rnd.nextInt(widths);
            int[] values = runs(rnd, width, 1 + rnd.nextInt(maxCount));
            check.check(width, values, "seed " + seed + " iteration " + iteration + " width " + width);
        }
    }

    /** Values below 2^width, in runs of repeats and stretches of noise (so both run kinds appear). */
    private static int[] runs(Random rnd, int width, int n) {
        long bound = 1L << width;
        int[] v = new int[n];
        int i = 0;
        while (i < n) {
            int len = Math.min(n - i, 1 + rnd.nextInt(40));
            boolean repeat = rnd.nextBoolean();
            int r = (int) (width == 0 ? 0 : rnd.nextLong(bound));
            for (int k = 0; k < len; k++) {
                v[i++] = repeat || width == 0 ? r : (int) rnd.nextLong(bound);
            }
        }
        return v;
    }
}
