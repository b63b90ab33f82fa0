package dev.ourios.store;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Optional;

/**
 * A view of a store whose reads and writes are paced by an {@link IoThrottle}: reads are charged by the bytes they
 * return (after the read, since a stream only knows then), writes by the bytes handed to an {@link AtomicOutput}
 * or {@link #putIfAbsent} (before the write, so the bytes written never run ahead of the bucket). Listings, stats
 * and deletes are not charged: they move no object bytes. Closing the view does not close the store.
 *
 * <p>A wait interrupted (a sweep cancelled on shutdown) surfaces as {@link InterruptedIOException} with the
 * thread's interrupt flag set again, so the caller's usual IO-failure path cleans up.
 */
final class ThrottledObjectStore extends ForwardingObjectStore {
    private final Optional<RateLimiter> reads;
    private final Optional<RateLimiter> writes;

    ThrottledObjectStore(ObjectStore store, IoThrottle throttle) {
        super(store);
        this.reads = throttle.reads();
        this.writes = throttle.writes();
    }

    @Override
    public RandomAccessInput openRandomAccess(String key) throws IOException {
        RandomAccessInput in = delegate.openRandomAccess(key);
        if (reads.isEmpty()) {
            return in;
        }
        return new ForwardingRandomAccessInput(in) {
            @Override
            public void readFully(long position, byte[] buffer, int offset, int len) throws IOException {
                delegate.readFully(position, buffer, offset, len);
                charge(reads, len);
            }
        };
    }

    @Override
    public InputStream openStream(String key) throws IOException {
        InputStream in = delegate.openStream(key);
        if (reads.isEmpty()) {
            return in;
        }
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    charge(reads, 1);
                }
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                charge(reads, n);
                return n;
            }
        };
    }

    @Override
    public byte[] readAllBytes(String key) throws IOException {
        byte[] content = delegate.readAllBytes(key);
        charge(reads, content.length);
        return content;
    }

    @Override
    public AtomicOutput create(String key) throws IOException {
        AtomicOutput out = delegate.create(key);
        if (writes.isEmpty()) {
            return out;
        }
        return new ForwardingAtomicOutput(out) {
            @Override
            public void write(int b) throws IOException {
                charge(writes, 1);
                delegate.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                charge(writes, len);
                delegate.write(b, off, len);
            }
        };
    }

    @Override
    public boolean putIfAbsent(String key, byte[] content) throws IOException {
        charge(writes, content.length);
        return delegate.putIfAbsent(key, content);
    }

    @Override
    public void close() {
        // a view: the store belongs to whoever opened it
    }

    @Override
    public String toString() {
        return "throttled view of " + delegate;
    }

    private static void charge(Optional<RateLimiter> bucket, long bytes) throws InterruptedIOException {
        if (bucket.isEmpty() || bytes <= 0) {
            return;
        }
        try {
            bucket.get().acquire(bytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException io = new InterruptedIOException("interrupted while waiting for the IO throttle");
            io.initCause(e);
            throw io;
        }
    }
}
