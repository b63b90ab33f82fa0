package dev.ourios.store;

import java.io.IOException;

/**
 * A random-access input that passes every call to another: the base of the store views' inputs, which override
 * only the reads they observe (counted, paced).
 */
abstract class ForwardingRandomAccessInput implements RandomAccessInput {
    protected final RandomAccessInput delegate;

    ForwardingRandomAccessInput(RandomAccessInput delegate) {
        this.delegate = delegate;
    }

    @Override
    public long length() {
        return delegate.length();
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int len) throws IOException {
        delegate.readFully(position, buffer, offset, len);
    }

    @Override
    public boolean requestsAreCostly() {
        return delegate.requestsAreCostly();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
