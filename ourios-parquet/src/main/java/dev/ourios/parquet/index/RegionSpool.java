package dev.ourios.parquet.index;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Where a file's token index collects until the file's last row group is written: in memory, or in a scratch file
 * when the writer has a scratch directory. The index of a large compacted file is tens of megabytes (about 10 bits
 * per distinct token of every row group), held until the footer; on disk it costs the heap one copy buffer instead,
 * so a compaction's heap does not grow with its output's size. Counts its bytes and their CRC32C as they are
 * written. Internal to ourios-parquet.
 */
public final class RegionSpool implements Closeable {
    /** Receives the region's bytes in order (the file being written). */
    @FunctionalInterface
    public interface Sink {
        void write(byte[] bytes, int offset, int length) throws IOException;
    }

    private static final int COPY_BYTES = 64 << 10;

    private final Path file;
    private final OutputStream out;
    private final ByteArrayOutputStream memory;
    private final CRC32C crc = new CRC32C();
    private long size;
    private boolean closed;

    private RegionSpool(Path file, OutputStream out, ByteArrayOutputStream memory) {
        this.file = file;
        this.out = out;
        this.memory = memory;
    }

    /** A spool on the heap. */
    public static RegionSpool inMemory() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        return new RegionSpool(null, b, b);
    }

    /** A spool in a new file of {@code dir}, deleted by {@link #close}. */
    public static RegionSpool inFile(Path dir) throws IOException {
        Path f = Files.createTempFile(dir, "token-index-", ".tmp");
        return new RegionSpool(f, new BufferedOutputStream(Files.newOutputStream(f), COPY_BYTES), null);
    }

    /** Where the filters are written, in group order; counted and checksummed. */
    public OutputStream stream() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                crc.update(b, off, len);
                size += len;
            }
        };
    }

    /** Bytes written so far. */
    public long size() {
        return size;
    }

    /** CRC32C of the bytes written so far. */
    public long crc32c() {
        return crc.getValue();
    }

    /** Hands every byte written, in order, to {@code sink}. */
    public void copyTo(Sink sink) throws IOException {
        if (memory != null) {
            byte[] all = memory.toByteArray();
            sink.write(all, 0, all.length);
            return;
        }
        out.flush();
        byte[] buffer = new byte[COPY_BYTES];
        long copied = 0;
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0; copied += n) {
                sink.write(buffer, 0, n);
            }
        }
        if (copied != size) {
            throw new IOException("token index spool " + file + " holds " + copied + " bytes, " + size + " written");
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.close();
        } finally {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        }
    }
}
