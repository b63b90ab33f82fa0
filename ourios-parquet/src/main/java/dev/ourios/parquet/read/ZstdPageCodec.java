package dev.ourios.parquet.read;

import com.github.luben.zstd.ZstdDecompressCtx;

/**
 * ZSTD pages (every file this store writes) in one native call with a decompression context kept between pages.
 * parquet-java's codec instead opens a streaming decompressor with its own context and buffers for every page and
 * copies the page out of it through a stream; on a query that reads every page of a file, that was most of the time
 * spent outside our decoding (docs/benchmarks.md).
 */
final class ZstdPageCodec extends PageCodec {
    private ZstdDecompressCtx context = new ZstdDecompressCtx();

    ZstdPageCodec() {
        super("ZSTD");
    }

    @Override
    int decompress(byte[] in, int from, int length, byte[] out) {
        return context.decompressByteArray(out, 0, out.length, in, from, length);
    }

    @Override
    public void release() {
        if (context != null) {
            context.close();
            context = null;
        }
    }
}
