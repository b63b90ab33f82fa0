package dev.ourios.compaction;

import dev.ourios.store.AtomicOutput;
import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A pass-through probe over a real store: it changes nothing and counts how often an open found its object gone.
 * The querier has no re-resolution counter, so a query that succeeded while this count rose is a query that
 * survived a vanished planned file by re-resolving its partition.
 */
final class VanishCountingStore implements ObjectStore {
    private final ObjectStore delegate;
    private final AtomicLong vanished = new AtomicLong();

    VanishCountingStore(ObjectStore delegate) {
        this.delegate = delegate;
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
    public List<String> listDirectories(String dirPrefix) throws IOException {
        return delegate.listDirectories(dirPrefix);
    }

    @Override
    public List<ObjectInfo> listObjects(String dirPrefix) throws IOException {
        return delegate.listObjects(dirPrefix);
    }

    @Override
    public Optional<ObjectInfo> stat(String key) throws IOException {
        return delegate.stat(key);
    }

    @Override
    public AtomicOutput create(String key) throws IOException {
        return delegate.create(key);
    }

    @Override
    public boolean putIfAbsent(String key, byte[] content) throws IOException {
        return delegate.putIfAbsent(key, content);
    }

    @Override
    public void delete(String key) throws IOException {
        delegate.delete(key);
    }

    @Override
    public String describe(String key) {
        return delegate.describe(key);
    }
}
