package dev.ourios.compaction;

import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A pass-through probe over a real store: it changes no data and counts how often an open found its object gone.
 * The querier has no re-resolution counter, so a query that succeeded while this count rose is a query that
 * survived a vanished planned file by re-resolving its partition.
 *
 * <p>Each open first waits {@code openLatency}, as an object store's request does (tens of milliseconds on S3). A
 * local disk opens a file in microseconds, and a querier that reads a partition's files on several threads opens
 * them all almost at once, so without the wait a file rarely vanishes between plan and open and a round can end
 * without exercising the re-resolution at all (CI, 2 cores: 0 of 274 counts did).
 */
final class VanishCountingStore extends ForwardingObjectStore {
    private final AtomicLong vanished = new AtomicLong();
    private final long openLatencyNanos;

    VanishCountingStore(ObjectStore delegate, Duration openLatency) {
        super(delegate);
        this.openLatencyNanos = openLatency.toNanos();
    }

    long vanished() {
        return vanished.get();
    }

    @Override
    public RandomAccessInput openRandomAccess(String key) throws IOException {
        awaitLatency();
        try {
            return delegate.openRandomAccess(key);
        } catch (NoSuchObjectException e) {
            vanished.incrementAndGet();
            throw e;
        }
    }

    @Override
    public InputStream openStream(String key) throws IOException {
        awaitLatency();
        try {
            return delegate.openStream(key);
        } catch (NoSuchObjectException e) {
            vanished.incrementAndGet();
            throw e;
        }
    }

    @Override
    public byte[] readAllBytes(String key) throws IOException {
        try (InputStream in = openStream(key)) {
            return in.readAllBytes();
        }
    }

    private void awaitLatency() throws IOException {
        // A deliberate delay, not synchronisation: the simulated latency of a remote store's open, which widens
        // the window between a query's plan and its reads so that GC can collect a planned file in between.
        try {
            Thread.sleep(openLatencyNanos / 1_000_000, (int) (openLatencyNanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while simulating an open's latency");
        }
    }

    /** A probe does not own the store it watches. */
    @Override
    public void close() {
    }
}
