package dev.ourios.parquet.read;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.brotli.dec.BrotliInputStream;

/** BROTLI pages with the reference Java decoder of the Brotli project. */
final class BrotliPageCodec extends PageCodec {
    BrotliPageCodec() {
        super("BROTLI");
    }

    @Override
    int decompress(byte[] in, int from, int length, byte[] out) throws IOException {
        try (BrotliInputStream brotli = new BrotliInputStream(new ByteArrayInputStream(in, from, length))) {
            int n = brotli.readNBytes(out, 0, out.length);
            return brotli.read() < 0 ? n : n + 1;
        }
    }
}
