package dev.ourios.parquet.read;

import java.io.IOException;
import org.xerial.snappy.Snappy;

/** SNAPPY pages (the default of DuckDB, Spark and pyarrow) through snappy-java, as parquet-java reads them. */
final class SnappyPageCodec extends PageCodec {
    SnappyPageCodec() {
        super("SNAPPY");
    }

    @Override
    int decompress(byte[] in, int from, int length, byte[] out) throws IOException {
        // The length the page's own preamble gives is checked first: snappy refuses to write past the array, and
        // a preamble that disagrees with the page header is a damaged page either way.
        int declared = Snappy.uncompressedLength(in, from, length);
        if (declared != out.length) {
            return declared;
        }
        return Snappy.uncompress(in, from, length, out, 0);
    }
}
