package dev.ourios.parquet.read;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Decompressor;

/**
 * LZ4 pages (the deprecated codec id 5). Writers on Hadoop's codec frame them: blocks of a big-endian uncompressed
 * length followed by one or more chunks, each a big-endian compressed length and an LZ4 block. Some writers put a
 * bare LZ4 block under the same id; as other readers do (Arrow's), a page whose framing does not add up to exactly
 * its bytes and its uncompressed size is read as one bare block.
 */
final class Lz4HadoopPageCodec extends PageCodec {
    private final Lz4Decompressor lz4 = new Lz4Decompressor();

    Lz4HadoopPageCodec() {
        super("LZ4");
    }

    @Override
    int decompress(byte[] in, int from, int length, byte[] out) {
        int framed = hadoopFramed(in, from, length, out);
        return framed >= 0 ? framed : lz4.decompress(in, from, length, out, 0, out.length);
    }

    /** The page read as Hadoop's framing, or -1 when it is not framed so. */
    private int hadoopFramed(byte[] in, int from, int length, byte[] out) {
        int at = from;
        int end = from + length;
        int written = 0;
        try {
            while (at < end) {
                if (end - at < 4) {
                    return -1;
                }
                int blockRaw = bigEndian(in, at);
                at += 4;
                if (blockRaw < 0 || blockRaw > out.length - written) {
                    return -1;
                }
                int blockEnd = written + blockRaw;
                while (written < blockEnd) {
                    if (end - at < 4) {
                        return -1;
                    }
                    int chunk = bigEndian(in, at);
                    at += 4;
                    if (chunk <= 0 || chunk > end - at) {
                        return -1;
                    }
                    written += lz4.decompress(in, at, chunk, out, written, blockEnd - written);
                    at += chunk;
                }
                if (written != blockEnd) {
                    return -1;
                }
            }
        } catch (MalformedInputException e) {
            return -1;
        }
        return written == out.length ? written : -1;
    }

    private static int bigEndian(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | b[at + 3] & 0xff;
    }
}
