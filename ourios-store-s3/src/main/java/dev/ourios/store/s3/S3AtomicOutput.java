package dev.ourios.store.s3;

import dev.ourios.store.AtomicOutput;
import java.io.IOException;

/**
 * A streamed write that S3 publishes atomically. Up to one part size is buffered in memory; a small object is
 * then one PUT on commit. Once more arrives, a multipart upload starts and each full buffer becomes a part, so
 * memory stays at one part size however large the object grows. Nothing is visible under the key until the
 * PUT or CompleteMultipartUpload succeeds.
 */
final class S3AtomicOutput extends AtomicOutput {
    private final S3Uploader uploader;
    private byte[] buffer;
    private int count;
    private long position;
    private boolean done;

    S3AtomicOutput(S3Uploader uploader, int partSize) {
        this.uploader = uploader;
        this.buffer = new byte[partSize];
    }

    @Override
    public void write(int b) throws IOException {
        ensureOpen();
        if (count == buffer.length) {
            flushPart();
        }
        buffer[count++] = (byte) b;
        position++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        ensureOpen();
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        while (len > 0) {
            if (count == buffer.length) {
                flushPart();
            }
            int n = Math.min(len, buffer.length - count);
            System.arraycopy(b, off, buffer, count, n);
            count += n;
            off += n;
            len -= n;
            position += n;
        }
    }

    /** Uploads the full buffer as the next part; only called when more bytes must follow it. */
    private void flushPart() throws IOException {
        try {
            uploader.uploadPart(buffer, count);
            count = 0;
        } catch (IOException e) {
            abort();
            throw e;
        }
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public void commit() throws IOException {
        if (done) {
            throw new IllegalStateException("already committed or aborted: " + uploader.location());
        }
        try {
            if (uploader.multipartStarted()) {
                if (count > 0) {
                    uploader.uploadPart(buffer, count);
                }
                uploader.completeMultipart();
            } else {
                uploader.putWhole(buffer, count);
            }
            done = true;
            buffer = null;
        } catch (IOException e) {
            abort();
            throw e;
        }
    }

    @Override
    public void abort() {
        if (done) {
            return;
        }
        done = true;
        buffer = null;
        uploader.abortMultipart();
    }

    private void ensureOpen() throws IOException {
        if (done) {
            throw new IOException("write after commit or abort: " + uploader.location());
        }
    }
}
