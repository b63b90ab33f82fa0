package dev.ourios.parquet.read;

/**
 * A position in a run of Parquet's RLE / bit-packing hybrid encoding (repetition and definition levels, dictionary
 * ids, RLE booleans) that moves forward by skipping values or decoding them into an {@code int[]}: a sparse read of a
 * page decodes only the values it needs. Skipping an RLE run, or values of a bit-packed run that are not counted,
 * costs nothing per value; one-bit levels are counted eight at a time. {@link LevelDecoding#rleHybrid} decodes a
 * whole page at once; this reads the same values ({@code LevelDecodingTest}).
 */
final class HybridRuns {
    private byte[] buf;
    private int pos;
    private int end;
    private int width;
    private int valueBytes;
    private long mask;
    /** Values left in the current run. */
    private int runLeft;
    private boolean rle;
    private int rleValue;
    /** A bit-packed run: the bit position of its next value. */
    private long bit;
    /** See {@link #passed}. */
    private int passed;
    /** The current bit-packed run's first bit: its groups of eight values start {@code 8 * width} bits apart. */
    private long runBit;
    /** parquet-java's unpacker of groups of eight values of the current width (made when the width changes). */
    private org.apache.parquet.column.values.bitpacking.BytePacker packer;

    /** Starts at the first run in {@code buf[pos, end)} of values {@code bitWidth} bits wide. */
    void reset(byte[] buf, int pos, int end, int bitWidth) {
        if (bitWidth < 0 || bitWidth > 32) {
            throw new IllegalArgumentException("bit width " + bitWidth + " out of range");
        }
        this.buf = buf;
        this.pos = pos;
        this.end = end;
        this.width = bitWidth;
        this.valueBytes = (bitWidth + 7) >>> 3;
        this.mask = bitWidth == 32 ? 0xFFFF_FFFFL : (1L << bitWidth) - 1;
        this.runLeft = 0;
    }

    /** Skips {@code n} values. */
    void skip(int n) {
        while (n > 0) {
            if (runLeft == 0) {
                nextRun(); // consumes a header at least: an empty run is passed over
                continue;
            }
            int take = Math.min(n, runLeft);
            if (!rle) {
                bit += (long) take * width;
            }
            runLeft -= take;
            n -= take;
        }
    }

    /** Skips {@code n} values and returns how many of them equal {@code value}. */
    int skipCounting(int n, int value) {
        int count = 0;
        while (n > 0) {
            if (runLeft == 0) {
                nextRun(); // consumes a header at least: an empty run is passed over
                continue;
            }
            int take = Math.min(n, runLeft);
            if (rle) {
                count += rleValue == value ? take : 0;
            } else {
                int i = 0;
                if (width == 1 && (bit & 7) == 0) { // levels of 0 and 1: eight at a time, by their bits
                    for (; i + 8 <= take; i += 8) {
                        count += matchesInByte(value);
                        bit += 8;
                    }
                }
                for (; i < take; i++) {
                    count += packed() == value ? 1 : 0;
                    bit += width;
                }
            }
            runLeft -= take;
            n -= take;
        }
        return count;
    }

    /**
     * Skips values up to the one that would be the {@code (occurrences + 1)}-th equal to {@code value} (that one is
     * not skipped), at most {@code limit} values; returns how many were skipped, and {@link #passed} how many of them
     * equal {@code value}. On repetition levels with {@code value} 0: skips to the entry that starts the row
     * {@code occurrences} rows on.
     */
    int skipBefore(int value, int occurrences, int limit) {
        int skipped = 0;
        int seen = 0;
        while (skipped < limit) {
            if (runLeft == 0) {
                nextRun(); // consumes a header at least: an empty run is passed over
                continue;
            }
            if (rle) {
                int take = Math.min(runLeft, limit - skipped);
                if (rleValue == value) {
                    if (seen == occurrences) {
                        break;
                    }
                    take = Math.min(take, occurrences - seen);
                    seen += take;
                }
                runLeft -= take;
                skipped += take;
            } else if (width == 1 && (bit & 7) == 0 && runLeft >= 8 && limit - skipped >= 8
                    && seen + matchesInByte(value) <= occurrences) { // eight levels at once, none the one to stop at
                seen += matchesInByte(value);
                bit += 8;
                runLeft -= 8;
                skipped += 8;
            } else {
                if (packed() == value) {
                    if (seen == occurrences) {
                        break;
                    }
                    seen++;
                }
                bit += width;
                runLeft--;
                skipped++;
            }
        }
        passed = seen;
        return skipped;
    }

    /** The values equal to the one asked for that the last {@link #skipBefore} skipped. */
    int passed() {
        return passed;
    }

    /**
     * Consumes the next {@code n} values and returns the sum of {@code weights} at each (a count of the values a
     * dictionary test passes, with weights of 1 and 0), decoding them a chunk of {@code scratch} at a time rather
     * than into a window.
     *
     * @throws IllegalStateException naming {@code column} for a value outside {@code weights} (a dictionary id out of
     *                               range)
     */
    int sumOf(int n, int[] weights, int[] scratch, String column) {
        int only = -1; // the one value of weight 1 when all others weigh 0 (an equality): counted without a lookup
        for (int v = 0; v < weights.length; v++) {
            if (weights[v] != 0) {
                only = weights[v] == 1 && only == -1 ? v : -2;
            }
        }
        int last = weights.length - 1;
        int sum = 0;
        for (int done = 0; done < n; ) {
            int m = Math.min(scratch.length, n - done);
            read(scratch, 0, m);
            int outside = 0; // negative once a value is below 0 or past the weights
            if (only >= 0) {
                for (int i = 0; i < m; i++) { // no branch and no lookup: ((x ^ only) - 1) >>> 31 is 1 iff x == only
                    int x = scratch[i];
                    outside |= x | (last - x);
                    sum += ((x ^ only) - 1) >>> 31;
                }
            } else {
                for (int i = 0; i < m; i++) {
                    outside |= scratch[i] | (last - scratch[i]);
                }
            }
            if (outside < 0) {
                for (int i = 0; i < m; i++) {
                    if (scratch[i] < 0 || scratch[i] >= weights.length) {
                        throw new IllegalStateException("column " + column + ": dictionary id " + scratch[i]
                                + " out of range (" + weights.length + " entries)");
                    }
                }
            }
            if (only < 0) {
                for (int i = 0; i < m; i++) {
                    sum += weights[scratch[i]];
                }
            }
            done += m;
        }
        return sum;
    }

    /** Decodes the next {@code n} values into {@code out[at, at + n)}. */
    void read(int[] out, int at, int n) {
        int done = 0;
        while (done < n) {
            if (runLeft == 0) {
                nextRun(); // consumes a header at least: an empty run is passed over
                continue;
            }
            int take = Math.min(n - done, runLeft);
            if (rle) {
                java.util.Arrays.fill(out, at + done, at + done + take, rleValue);
            } else if (width > 0 && bit + (long) take * width <= (long) end * 8) {
                unpack(out, at + done, take);
            } else {
                for (int i = 0; i < take; i++) { // checked one value at a time: the run overruns, or width 0
                    out[at + done + i] = packed();
                    bit += width;
                }
            }
            runLeft -= take;
            done += take;
        }
    }

    /** Little-endian 64-bit loads at any byte offset: one load gathers a value of up to 32 bits and its shift. */
    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * Decodes {@code n} bit-packed values from {@link #bit} into {@code out[at, at + n)}, all of whose bits the
     * caller checked lie before {@link #end}. A bit-packed run is groups of eight values, each group {@link #width}
     * bytes starting on a byte: whole groups go to parquet-java's unpacker generated for the width (32 or 8 values
     * a call, no loop per bit); values before the next group's start and after the last whole group are each one
     * 64-bit load at their first byte, shifted and masked (a value of at most 32 bits starting at most 7 bits into
     * its byte lies within the load), or gathered byte by byte ({@link #packed}) where that load would run past the
     * array.
     */
    private void unpack(int[] out, int at, int n) {
        int w = width;
        int i = 0;
        while (i < n && (bit - runBit) % (8L * w) != 0) {
            out[at + i++] = one();
        }
        if (packer == null || packer.getBitWidth() != w) {
            packer = org.apache.parquet.column.values.bitpacking.Packer.LITTLE_ENDIAN.newBytePacker(w);
        }
        byte[] bytes = buf;
        for (; n - i >= 32; i += 32) {
            packer.unpack32Values(bytes, (int) (bit >>> 3), out, at + i);
            bit += 32L * w;
        }
        for (; n - i >= 8; i += 8) {
            packer.unpack8Values(bytes, (int) (bit >>> 3), out, at + i);
            bit += 8L * w;
        }
        while (i < n) {
            out[at + i++] = one();
        }
    }

    /** The bit-packed value at {@link #bit}, which then moves past it. */
    private int one() {
        int v;
        if (bit < (long) (buf.length - 8) << 3) {
            long word = (long) LONGS.get(buf, (int) (bit >>> 3));
            v = (int) ((word >>> (bit & 7)) & mask);
        } else {
            v = packed();
        }
        bit += width;
        return v;
    }

    /** Of the eight one-bit values in the byte at {@link #bit} (byte-aligned), how many equal {@code value}. */
    private int matchesInByte(int value) {
        int at = (int) (bit >>> 3);
        if (at >= end) {
            throw new IllegalArgumentException("a bit-packed run overruns its data");
        }
        int ones = Integer.bitCount(buf[at] & 0xFF);
        return value == 1 ? ones : value == 0 ? 8 - ones : 0;
    }

    /** The bit-packed value at {@link #bit} (least significant bit first). */
    private int packed() {
        int at = (int) (bit >>> 3);
        int shift = (int) (bit & 7);
        int need = (shift + width + 7) >>> 3;
        if (at + need > end) {
            throw new IllegalArgumentException("a bit-packed run overruns its data");
        }
        long acc = 0;
        for (int i = 0; i < need; i++) {
            acc |= (long) (buf[at + i] & 0xFF) << (8 * i);
        }
        return (int) ((acc >>> shift) & mask);
    }

    private void nextRun() {
        if (pos >= end) {
            throw new IllegalArgumentException("run data ends before the values it should hold");
        }
        long read = LevelDecoding.runHeader(buf, pos, end);
        int header = (int) (read >>> 32);
        pos = (int) read;
        if ((header & 1) == 0) {
            int run = header >>> 1;
            if (pos + valueBytes > end) {
                throw new IllegalArgumentException("an RLE run overruns its data");
            }
            int value = 0;
            for (int i = 0; i < valueBytes; i++) {
                value |= (buf[pos++] & 0xFF) << (8 * i);
            }
            rle = true;
            rleValue = value;
            runLeft = run;
        } else {
            long groups = header >>> 1;
            rle = false;
            bit = (long) pos * 8;
            runBit = bit;
            runLeft = (int) Math.min(Integer.MAX_VALUE, groups * 8);
            pos = (int) Math.min(end, pos + groups * width);
        }
    }
}
