package dev.ourios.compaction;

import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A pass-through probe over a real store: it changes nothing and counts how often an open found its object gone.
 * The querier has no re-resolution counter, so a query that succeeded while this count rose is a query that
 * survived a vanished planned file by re-resolving its partition.
 */
final class VanishCountingStore extends ForwardingObjectStore {
    private final AtomicLong vanished = new AtomicLong();

    VanishCountingStore(ObjectStore delegate) {
        super(delegate);
    }

    long vanished() {
        return vanished.get();
    }

    @Override
    public RandomAccessInput openRandomAccess(String key) throws IOException {
        try {
            return delegate.openRandomAccess(key);
        } catch (NoSuchObjectException e) {
            vanished.incrementAndGet();
            throw e;
        }
    }

    @Override
    public InputStream openStream(String key) throws IOException {
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

    /** A probe does not own the store it watches. */
    @Override
    public void close() {
    }
}
