package dev.ourios.parquet.footer;

import dev.ourios.parquet.LogFormatException;
import dev.ourios.store.RandomAccessInput;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;

/**
 * The raw (thrift) footer of a Parquet object: {@code sorting_columns} and the encodings lists are visible only
 * there (parquet-java's {@code ParquetMetadata} drops the first). The writer's footer rewrite
 * ({@code write.FooterRewrite}) parses the trailer of the file it wrote with {@link #footerLength}.
 */
public final class Footers {
    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

    private Footers() {
    }

    /** Reads the thrift footer of a plaintext-footer Parquet object with two ranged reads. */
    public static FileMetaData readRaw(RandomAccessInput in, String file) throws IOException {
        long len = in.length();
        if (len < 12) {
            throw new LogFormatException(file + ": not a Parquet file (" + len + " bytes)");
        }
        byte[] tail = new byte[8];
        in.readFully(len - 8, tail, 0, 8);
        int footerLen = footerLength(tail, 0, file);
        if (footerLen < 0 || footerLen > len - 12) {
            throw new LogFormatException(file + ": not a Parquet file (footer length " + footerLen + " of a "
                    + len + "-byte object)");
        }
        byte[] footer = new byte[footerLen];
        in.readFully(len - 8 - footerLen, footer, 0, footerLen);
        try {
            return Util.readFileMetaData(new ByteArrayInputStream(footer));
        } catch (IOException | RuntimeException e) {
            throw new LogFormatException(file + ": unreadable Parquet footer: " + LogFormatException.reason(e), e);
        }
    }

    /**
     * The footer length a Parquet trailer ({@code b[off, off + 8)}: the length, then "PAR1") declares.
     *
     * <p>Internal to ourios-parquet: public only for the {@code write} package's footer rewrite.
     */
    public static int footerLength(byte[] b, int off, String file) throws LogFormatException {
        for (int i = 0; i < 4; i++) {
            if (b[off + 4 + i] != MAGIC[i]) {
                throw new LogFormatException(file + ": not a Parquet file (no PAR1 trailer)");
            }
        }
        return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8 | (b[off + 2] & 0xff) << 16 | (b[off + 3] & 0xff) << 24;
    }
}
