package dev.ourios.server.otlp;

import dev.ourios.ingest.ByteBudget;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads a request body, and inflates a gzip body, within two limits: the size limit (413 once exceeded, so a
 * small compressed body cannot expand into a huge one) and the shared heap budget (429 when other requests hold
 * it, or the tenant's requests hold its share of it). Each chunk is charged to the tenant before it is kept;
 * {@link #charged()} is what the caller must release.
 */
final class BodyReader {
    private static final int CHUNK = 64 << 10;
    private final ByteBudget budget;
    private final String tenant;
    private final int maxBytes;
    private long charged;

    BodyReader(ByteBudget budget, String tenant, int maxBytes) {
        this.budget = budget;
        this.tenant = tenant;
        this.maxBytes = maxBytes;
    }

    long charged() {
        return charged;
    }

    /** Charges {@code n} more bytes (for decoded objects), or refuses with 429. */
    void charge(long n) throws Refusal {
        if (!budget.tryAcquire(tenant, n)) {
            throw LogsExport.bufferFull(budget, tenant, n);
        }
        charged += n;
    }

    byte[] read(InputStream in, String what) throws IOException, Refusal {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[CHUNK];
        while (true) {
            int n = in.readNBytes(buf, 0, buf.length);
            if (n == 0) {
                break;
            }
            if ((long) out.size() + n > maxBytes) {
                throw new Refusal(413, what + " larger than " + maxBytes + " bytes (ingest.max_body_bytes)");
            }
            charge(n);
            out.write(buf, 0, n);
            if (n < buf.length) {
                // readNBytes returns short only at the end of the stream
                break;
            }
        }
        return out.toByteArray();
    }

    byte[] gunzip(byte[] compressed) throws IOException, Refusal {
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(compressed), CHUNK)) {
            return read(in, "decompressed body");
        } catch (ZipException | java.io.EOFException e) {
            throw new Refusal(400, "Content-Encoding gzip, but the body is not valid gzip: " + e.getMessage());
        }
    }
}
