package dev.ourios.parquet.read;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;

/**
 * GZIP pages with the JDK's inflater: a page is a gzip stream (one member or several, as concatenated streams are),
 * and must hold exactly the page's uncompressed size.
 */
final class GzipPageCodec extends PageCodec {
    GzipPageCodec() {
        super("GZIP");
    }

    @Override
    int decompress(byte[] in, int from, int length, byte[] out) throws IOException {
        try (GZIPInputStream gzip = new GZIPInputStream(new ByteArrayInputStream(in, from, length))) {
            int n = gzip.readNBytes(out, 0, out.length);
            return gzip.read() < 0 ? n : n + 1;
        }
    }
}
