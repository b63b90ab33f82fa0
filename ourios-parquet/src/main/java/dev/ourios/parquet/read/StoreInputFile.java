package dev.ourios.parquet.read;

import dev.ourios.store.RandomAccessInput;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * An {@link InputFile} over a {@link RandomAccessInput}: every read is a ranged read at the stream's position, so
 * a Parquet reader fetches the footer and then only the column chunks it needs. Small reads are served from a
 * read-ahead window so that parquet-java's byte-at-a-time header parsing does not become one store request per
 * byte, and, where requests are costly (S3), so that small reads close together share one; large reads (column
 * chunks), and every read of a known length where requests are cheap, go straight to the store. Counts the bytes
 * fetched.
 *
 * <p>{@link #prefetch} reads a span once for the reads that follow inside it: a query that keeps a few rows of a row
 * group fetches one page per column, which on S3 would be a GET per column (see {@link LogFileReader}).
 *
 * <p>Internal to ourios-parquet: public only for the {@code runs} package (sort runs are read through it too);
 * the prefetch and the byte count are {@link LogFileReader}'s alone.
 */
public final class StoreInputFile implements InputFile {
    static final int WINDOW = 64 << 10;

    private final RandomAccessInput input;
    private final String name;
    private final AtomicLong bytesRead = new AtomicLong();
    /** The prefetched span, or null; confined to the reader's thread like the streams. */
    private byte[] span;
    private long spanStart;

    public StoreInputFile(RandomAccessInput input, String name) {
        this.input = input;
        this.name = name;
    }

    @Override
    public long getLength() {
        return input.length();
    }

    @Override
    public SeekableInputStream newStream() {
        return new Stream();
    }

    long bytesRead() {
        return bytesRead.get();
    }

    /** Whether a read is a costly request (the store's {@link RandomAccessInput#requestsAreCostly}). */
    boolean requestsAreCostly() {
        return input.requestsAreCostly();
    }

    /**
     * Reads {@code [start, start + len)} in one read now; reads inside it are then served from memory until
     * {@link #dropPrefetch}. The caller bounds {@code len} (the span is held in the heap).
     */
    void prefetch(long start, int len) throws IOException {
        byte[] b = new byte[len];
        input.readFully(start, b, 0, len);
        bytesRead.addAndGet(len);
        span = b;
        spanStart = start;
    }

    void dropPrefetch() {
        span = null;
    }

    /** Serves {@code [p, p + len)} from the prefetched span if it holds it. */
    private boolean fromSpan(long p, byte[] bytes, int start, int len) {
        byte[] s = span;
        if (s == null || p < spanStart || p + len > spanStart + s.length) {
            return false;
        }
        System.arraycopy(s, (int) (p - spanStart), bytes, start, len);
        return true;
    }

    @Override
    public String toString() {
        return name;
    }

    private final class Stream extends SeekableInputStream {
        private long pos;
        private byte[] window = new byte[0];
        private long windowStart;
        private int windowLen;

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void seek(long newPos) throws IOException {
            if (newPos < 0 || newPos > input.length()) {
                throw new EOFException(name + ": seek to " + newPos + " outside 0.." + input.length());
            }
            pos = newPos;
        }

        @Override
        public int read() throws IOException {
            if (pos >= input.length()) {
                return -1;
            }
            if (!inWindow(pos, 1)) {
                fill(pos);
            }
            return window[(int) (pos++ - windowStart)] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            long remaining = input.length() - pos;
            if (remaining <= 0) {
                return -1;
            }
            int n = (int) Math.min(len, remaining);
            readFully(b, off, n);
            return n;
        }

        @Override
        public void readFully(byte[] bytes) throws IOException {
            readFully(bytes, 0, bytes.length);
        }

        @Override
        public void readFully(byte[] bytes, int start, int len) throws IOException {
            if (pos + len > input.length()) {
                throw new EOFException(name + ": read of " + len + " bytes at " + pos + " past the end ("
                        + input.length() + ")");
            }
            if (inWindow(pos, len)) {
                System.arraycopy(window, (int) (pos - windowStart), bytes, start, len);
            } else if (fromSpan(pos, bytes, start, len)) {
                // prefetched
            } else if (len >= WINDOW / 2 || !input.requestsAreCostly()) {
                // one read of what is asked: where a read is no costly request (a local file) a whole window would
                // copy, and allocate, up to 64 KiB for the few the caller needs (a page of one column)
                input.readFully(pos, bytes, start, len);
                bytesRead.addAndGet(len);
            } else {
                fill(pos);
                System.arraycopy(window, 0, bytes, start, len);
            }
            pos += len;
        }

        @Override
        public int read(ByteBuffer buf) throws IOException {
            int len = Math.min(buf.remaining(), (int) Math.min(Integer.MAX_VALUE, input.length() - pos));
            if (len <= 0) {
                return buf.hasRemaining() ? -1 : 0;
            }
            readInto(buf, len);
            return len;
        }

        @Override
        public void readFully(ByteBuffer buf) throws IOException {
            readInto(buf, buf.remaining());
        }

        private void readInto(ByteBuffer buf, int len) throws IOException {
            if (buf.hasArray()) {
                readFully(buf.array(), buf.arrayOffset() + buf.position(), len);
                buf.position(buf.position() + len);
            } else {
                byte[] tmp = new byte[len];
                readFully(tmp, 0, len);
                buf.put(tmp);
            }
        }

        private boolean inWindow(long p, int len) {
            return p >= windowStart && p + len <= windowStart + windowLen;
        }

        private void fill(long p) throws IOException {
            int len = (int) Math.min(WINDOW, input.length() - p);
            if (window.length < WINDOW) {
                window = new byte[WINDOW];
            }
            if (!fromSpan(p, window, 0, len)) {
                input.readFully(p, window, 0, len);
                bytesRead.addAndGet(len);
            }
            windowStart = p;
            windowLen = len;
        }
    }
}
