package dev.ourios.store;

import java.io.IOException;

/**
 * An atomic output that passes every call to another: the base of the store views' outputs, which override only
 * the calls they observe (counted, paced).
 */
abstract class ForwardingAtomicOutput extends AtomicOutput {
    protected final AtomicOutput delegate;

    ForwardingAtomicOutput(AtomicOutput delegate) {
        this.delegate = delegate;
    }

    @Override
    public void write(int b) throws IOException {
        delegate.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        delegate.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        delegate.flush();
    }

    @Override
    public long position() {
        return delegate.position();
    }

    @Override
    public void commit() throws IOException {
        delegate.commit();
    }

    @Override
    public void abort() {
        delegate.abort();
    }
}
