package dev.ourios.parquet.write;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable little-endian byte buffer for building page bodies, with the RLE / bit-packing hybrid encoder
 * (parquet-format Encodings.md) used for levels and dictionary ids. The buffer is reused page after page: the page
 * store compresses (copies) a page before {@link #reset} is called again.
 */
final class PageBytes {
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Groups of 8 values per bit-packed run header at most: parquet-java's limit, which every reader accepts. */
    private static final int MAX_GROUPS_PER_RUN = 63;

    private byte[] buf;
    private int size;

    PageBytes(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    byte[] array() {
        return buf;
    }

    int size() {
        return size;
    }

    void reset() {
        size = 0;
    }

    void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(size + more, buf.length * 2));
        }
    }

    void i32(int v) {
        ensure(4);
        I32.set(buf, size, v);
        size += 4;
    }

    void i64(long v) {
        ensure(8);
        I64.set(buf, size, v);
        size += 8;
    }

    void i32At(int position, int v) {
        I32.set(buf, position, v);
    }

    void u8(int v) {
        ensure(1);
        buf[size++] = (byte) v;
    }

    void bytes(byte[] a, int off, int len) {
        ensure(len);
        System.arraycopy(a, off, buf, size, len);
        size += len;
    }

    private void varint(int v) {
        ensure(5);
        while ((v & ~0x7F) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
    }

    /**
     * Appends {@code values[0, count)} in the RLE / bit-packing hybrid at {@code bitWidth}: runs of at least 8 equal
     * values as RLE runs, the rest bit-packed in groups of 8 (a last group padded with zeros).
     */
    void rleHybrid(int[] values, int count, int bitWidth) {
        int pending = 0; // start of the values not yet written (all bit-packed candidates)
        int i = 0;
        while (i < count) {
            int v = values[i];
            int j = i + 1;
            while (j < count && values[j] == v) {
                j++;
            }
            int run = j - i;
            if (run < 8) {
                i = j;
                continue;
            }
            if (i > pending) {
                // Bit-packed groups hold 8 values: complete the last group with values of the run.
                int pad = (8 - (i - pending) % 8) % 8;
                bitPacked(values, pending, i + pad, bitWidth);
                i += pad;
                run -= pad;
            }
            if (run >= 8) {
                rle(v, run, bitWidth);
                pending = j;
            } else {
                pending = i;
            }
            i = j;
        }
        if (count > pending) {
            bitPacked(values, pending, count, bitWidth);
        }
    }

    private void rle(int value, int run, int bitWidth) {
        varint(run << 1);
        int valueBytes = (bitWidth + 7) >>> 3;
        ensure(valueBytes);
        for (int k = 0; k < valueBytes; k++) {
            buf[size++] = (byte) (value >>> (8 * k));
        }
    }

    /** Values {@code [from, to)} bit-packed, in runs of at most 63 groups; the last group padded with zeros. */
    private void bitPacked(int[] values, int from, int to, int bitWidth) {
        int at = from;
        while (at < to) {
            int groups = Math.min(MAX_GROUPS_PER_RUN, (to - at + 7) >>> 3);
            varint((groups << 1) | 1);
            int n = groups * 8;
            ensure(groups * bitWidth);
            long acc = 0;
            int bits = 0;
            for (int k = 0; k < n; k++) {
                int idx = at + k;
                long v = idx < to ? values[idx] & 0xFFFF_FFFFL : 0;
                acc |= v << bits;
                bits += bitWidth;
                while (bits >= 8) {
                    buf[size++] = (byte) acc;
                    acc >>>= 8;
                    bits -= 8;
                }
            }
            at += n;
        }
    }
}
