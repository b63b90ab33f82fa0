package dev.ourios.store.s3;

import java.io.FilterInputStream;
import java.io.IOException;
import software.amazon.awssdk.core.ResponseInputStream;

/**
 * A GET body that, when closed before its end, aborts the connection instead of draining it: draining the rest
 * of a multi-GB object to reuse one pooled connection costs far more than opening a new one.
 */
final class AbortingInputStream extends FilterInputStream {
    private final ResponseInputStream<?> response;
    private boolean atEnd;

    AbortingInputStream(ResponseInputStream<?> response) {
        super(response);
        this.response = response;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        atEnd |= b < 0;
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        atEnd |= n < 0;
        return n;
    }

    @Override
    public void close() throws IOException {
        if (!atEnd) {
            response.abort();
        }
        super.close();
    }
}
