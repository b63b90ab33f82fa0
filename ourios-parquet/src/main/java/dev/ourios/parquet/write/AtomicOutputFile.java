package dev.ourios.parquet.write;

import dev.ourios.store.AtomicOutput;
import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * An {@link OutputFile} over an {@link AtomicOutput} that can hold back the tail of the file.
 *
 * <p>Why: the footer must be rewritten (sorting_columns, deterministic encodings), and an atomic streamed output
 * cannot be truncated. parquet-java writes, after the last row group, the column indexes, offset indexes, bloom
 * filters and then the footer. {@link #startCapture()} is called just before that (from
 * {@code WriteSupport.finalizeWrite}); from then on bytes are held in memory. To bound memory if the bloom filters
 * are large, held bytes beyond {@link #MAX_HELD} are written through, keeping at least {@link #MIN_HELD}, which is
 * far above any real footer (parquet-java drops statistics larger than 4 KiB, so a footer is a few KiB per column
 * chunk at most).
 *
 * <p>Internal to ourios-parquet: public only for the {@code runs} package (sort runs are written through it too);
 * the tail capture is {@link LogFileWriter}'s alone.
 */
public final class AtomicOutputFile implements OutputFile {
    static final int MIN_HELD = 16 << 20;
    static final int MAX_HELD = 2 * MIN_HELD;

    private final AtomicOutput out;
    private final TailStream stream = new TailStream();
    private boolean created;

    public AtomicOutputFile(AtomicOutput out) {
        this.out = out;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
        if (created) {
            throw new IOException("output already created");
        }
        created = true;
        return stream;
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
        return create(blockSizeHint);
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    @Override
    public String getPath() {
        return null;
    }

    /** Bytes written so far, held ones included. */
    long position() {
        return stream.pos;
    }

    /** From now on, hold written bytes back. */
    void startCapture() {
        stream.capturing = true;
    }

    /**
     * Called after parquet-java finished: returns the held tail (which ends with the footer, its length and
     * "PAR1") and its absolute start offset, and stops holding.
     */
    Tail takeTail() {
        // Handed over, not copied: the tail can be tens of MiB (bloom filters of a large file), taken at the end of
        // a compaction when the heap is fullest.
        Tail t = new Tail(stream.pos - stream.held, stream.buf, stream.held);
        stream.buf = new byte[0];
        stream.held = 0;
        stream.capturing = false;
        return t;
    }

    /** Writes bytes after the held tail was taken (the held bytes before the footer, then the new footer). */
    void writeThrough(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
    }

    /** The held tail: {@code bytes[0, length)} starts at file offset {@code offset}. */
    record Tail(long offset, byte[] bytes, int length) {
    }

    private final class TailStream extends PositionOutputStream {
        long pos;
        boolean capturing;
        byte[] buf = new byte[0];
        int held;

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void write(int b) throws IOException {
            if (!capturing) {
                out.write(b);
            } else {
                ensure(1);
                buf[held++] = (byte) b;
            }
            pos++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (!capturing) {
                out.write(b, off, len);
            } else {
                ensure(len);
                System.arraycopy(b, off, buf, held, len);
                held += len;
            }
            pos += len;
        }

        private void ensure(int len) throws IOException {
            if (held + len > MAX_HELD && held > MIN_HELD) {
                int drop = held - MIN_HELD;
                out.write(buf, 0, drop);
                System.arraycopy(buf, drop, buf, 0, MIN_HELD);
                held = MIN_HELD;
            }
            if (held + len > buf.length) {
                // Doubling, but never past what may be held: a 32 MiB buffer must not grow to 64 MiB for one write.
                long grown = Math.max(held + len, Math.min(Math.max(64 << 10, buf.length * 2L), MAX_HELD + len));
                buf = Arrays.copyOf(buf, (int) grown);
            }
        }

        @Override
        public void flush() {
            // Nothing to do: the AtomicOutput publishes on commit, and held bytes must stay held.
        }

        @Override
        public void close() {
            // parquet-java closes its stream at the end of the write; the AtomicOutput must stay open for the
            // footer rewrite and the commit, which LogFileWriter does.
        }
    }
}
