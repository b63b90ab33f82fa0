package dev.ourios.store.s3;

import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.RandomAccessInput;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Ranged GETs of one object whose length and ETag came from a HEAD or a listing. Small reads go through one cached window of
 * {@link #WINDOW} bytes: a Parquet reader reads the 8-byte footer trailer and then the footer just before it, so
 * a read near the end fetches the object's tail, which usually serves both. Large reads (column chunks) go straight
 * into the caller's buffer. An object of at most {@link #WHOLE_OBJECT} bytes is fetched whole by its first read:
 * a small file's footer and the pages a query then reads come from one GET, where a request costs more than
 * the bytes. Every GET pins that ETag, so an object replaced under a reader fails loudly instead
 * of mixing bytes of two versions.
 */
final class S3RandomAccessInput implements RandomAccessInput {
    static final int WINDOW = 64 << 10;
    /** Objects up to this size are read whole by their first read (one GET serves every later read). */
    static final int WHOLE_OBJECT = 256 << 10;

    private final S3Client client;
    private final String bucket;
    private final String s3Key;
    private final long length;
    private final String eTag;
    private final String location;
    private final S3ErrorTranslator errors;
    /** Told when a read finds the object replaced or gone: what the opener knew of it is stale. */
    private final Runnable stale;

    private byte[] window = new byte[0];
    private long windowStart = -1;

    S3RandomAccessInput(S3Client client, String bucket, String s3Key, long length, String eTag, String location,
                        S3ErrorTranslator errors, Runnable stale) {
        this.client = client;
        this.bucket = bucket;
        this.s3Key = s3Key;
        this.length = length;
        this.eTag = eTag;
        this.location = location;
        this.errors = errors;
        this.stale = stale;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public boolean requestsAreCostly() {
        return true;
    }

    @Override
    public synchronized void readFully(long position, byte[] buffer, int offset, int len) throws IOException {
        if (position < 0 || len < 0 || offset < 0 || offset + len > buffer.length) {
            throw new IndexOutOfBoundsException("position " + position + ", offset " + offset + ", len " + len);
        }
        if (position + len > length) {
            throw new EOFException("read of " + len + " bytes at " + position + " is beyond the end of " + location
                    + " (" + length + " bytes)");
        }
        if (len == 0) {
            return;
        }
        if (windowStart >= 0 && position >= windowStart && position + len <= windowStart + window.length) {
            System.arraycopy(window, (int) (position - windowStart), buffer, offset, len);
            return;
        }
        if (len >= WINDOW && length > WHOLE_OBJECT) {
            fetch(position, buffer, offset, len);
            return;
        }
        long start = position;
        long end = Math.min(length, position + WINDOW);
        if (length <= WHOLE_OBJECT) {
            start = 0;
            end = length;
        } else if (end == length) {
            // near the end: take the whole tail, which is where the Parquet footer lives
            start = Math.max(0, length - WINDOW);
        }
        byte[] w = new byte[(int) (end - start)];
        fetch(start, w, 0, w.length);
        window = w;
        windowStart = start;
        System.arraycopy(window, (int) (position - windowStart), buffer, offset, len);
    }

    /** One GET of bytes [position, position+len). */
    private void fetch(long position, byte[] buffer, int offset, int len) throws IOException {
        String range = "bytes=" + position + "-" + (position + len - 1);
        try (ResponseInputStream<GetObjectResponse> in = client.getObject(b -> b.bucket(bucket).key(s3Key)
                .range(range).ifMatch(eTag))) {
            readExactly(in, buffer, offset, len, position);
        } catch (S3Exception e) {
            if (e.statusCode() == 412 || e.statusCode() == 404) {
                stale.run();
            }
            if (e.statusCode() == 412) {
                throw new NoSuchObjectException("object was replaced while being read: " + location);
            }
            throw errors.translate(e, "GET " + range + " of", location);
        } catch (SdkException e) {
            throw errors.translate(e, "GET " + range + " of", location);
        }
    }

    private void readExactly(InputStream in, byte[] buffer, int offset, int len, long position) throws IOException {
        int done = 0;
        while (done < len) {
            int n = in.read(buffer, offset + done, len - done);
            if (n < 0) {
                throw new EOFException("short ranged read of " + location + " at byte " + (position + done)
                        + ": expected " + len + " bytes, got " + done);
            }
            done += n;
        }
    }

    @Override
    public synchronized void close() {
        window = new byte[0];
        windowStart = -1;
    }
}
