package dev.ourios.parquet.read;

/**
 * Bulk decoders of Parquet's integer run encodings into {@code int[]}: the RLE / bit-packing hybrid (definition and
 * repetition levels, dictionary ids, RLE booleans) and the deprecated big-endian BIT_PACKED levels of old writers.
 * A whole page's runs are decoded in one pass (an RLE run is one {@code Arrays.fill}) instead of one virtual call
 * per value through parquet-java's decoders (parquet-format Encodings.md).
 */
final class LevelDecoding {
    private LevelDecoding() {
    }

    /**
     * Decodes {@code count} values of the RLE / bit-packing hybrid in {@code buf[pos, end)} into {@code out}.
     *
     * @return the position after the last run read
     */
    static int rleHybrid(byte[] buf, int pos, int end, int bitWidth, int[] out, int count) {
        if (bitWidth < 0 || bitWidth > 32) {
            throw new IllegalArgumentException("bit width " + bitWidth + " out of range");
        }
        int valueBytes = (bitWidth + 7) >>> 3;
        long mask = bitWidth == 32 ? 0xFFFF_FFFFL : (1L << bitWidth) - 1;
        int n = 0;
        while (n < count) {
            if (pos >= end) {
                throw new IllegalArgumentException("run data ends after " + n + " of " + count + " values");
            }
            long read = runHeader(buf, pos, end);
            int header = (int) (read >>> 32);
            pos = (int) read;
            if ((header & 1) == 0) {
                int run = header >>> 1;
                int value = 0;
                for (int i = 0; i < valueBytes; i++) {
                    value |= (buf[pos++] & 0xFF) << (8 * i);
                }
                int take = Math.min(run, count - n);
                java.util.Arrays.fill(out, n, n + take, value);
                n += take;
            } else {
                int groups = header >>> 1;
                long values = (long) groups * 8;
                int take = (int) Math.min(values, count - n);
                int runEnd = (int) Math.min((long) pos + (long) groups * bitWidth, end);
                long acc = 0;
                int bits = 0;
                int p = pos;
                for (int i = 0; i < take; i++) {
                    while (bits < bitWidth) {
                        acc |= (long) (buf[p++] & 0xFF) << bits;
                        bits += 8;
                    }
                    out[n + i] = (int) (acc & mask);
                    acc >>>= bitWidth;
                    bits -= bitWidth;
                }
                n += take;
                pos = runEnd;
            }
        }
        return pos;
    }

    /**
     * The varint header of the run at {@code buf[pos]} (the run's length and kind): the header in the high 32 bits
     * of the result, the position after it in the low 32.
     */
    static long runHeader(byte[] buf, int pos, int end) {
        int header = 0;
        int shift = 0;
        int b;
        do {
            if (pos >= end) {
                throw new IllegalArgumentException("a run header overruns its data");
            }
            b = buf[pos++];
            header |= (b & 0x7F) << shift;
            shift += 7;
        } while ((b & 0x80) != 0 && shift < 35);
        return ((long) header << 32) | (pos & 0xFFFF_FFFFL);
    }

    /**
     * Decodes {@code count} values of the deprecated BIT_PACKED level encoding (most significant bit first).
     *
     * @return the position after the packed values
     */
    static int bitPacked(byte[] buf, int pos, int bitWidth, int[] out, int count) {
        long bit = (long) pos * 8;
        for (int i = 0; i < count; i++) {
            int v = 0;
            for (int k = 0; k < bitWidth; k++, bit++) {
                int byteValue = buf[(int) (bit >>> 3)] & 0xFF;
                v = (v << 1) | ((byteValue >>> (7 - (int) (bit & 7))) & 1);
            }
            out[i] = v;
        }
        return (int) ((bit + 7) >>> 3);
    }
}
