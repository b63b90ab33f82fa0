package dev.ourios.parquet.read;

import io.airlift.compress.lz4.Lz4Decompressor;

/** LZ4_RAW pages (one LZ4 block each) with aircompressor, the library parquet-java's own LZ4_RAW codec uses. */
final class Lz4RawPageCodec extends PageCodec {
    private final Lz4Decompressor lz4 = new Lz4Decompressor();

    Lz4RawPageCodec() {
        super("LZ4_RAW");
    }

    @Override
    int decompress(byte[] in, int from, int length, byte[] out) {
        return lz4.decompress(in, from, length, out, 0, out.length);
    }
}
