package dev.ourios.compaction;

import dev.ourios.store.AtomicOutput;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * TEST-ONLY: the store GC deletes through when {@link CrashPoint#MID_GC} is armed; it reaches that point after each
 * delete, so the process dies right after GC's first one. GC lives in ourios-table and knows nothing of crash
 * points; wrapping its store here keeps the hook out of it. Never built unless the point is armed.
 */
final class CrashAfterDeleteStore implements ObjectStore {
    private final ObjectStore delegate;

    CrashAfterDeleteStore(ObjectStore delegate) {
        this.delegate = delegate;
    }

    /** {@code store} itself unless {@link CrashPoint#MID_GC} is armed. */
    static ObjectStore forGc(ObjectStore store) {
        return CrashPoint.MID_GC.isArmed() ? new CrashAfterDeleteStore(store) : store;
    }

    @Override
    public void delete(String key) throws IOException {
        delegate.delete(key);
        CrashPoint.MID_GC.reach();
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
    public RandomAccessInput openRandomAccess(String key) throws IOException {
        return delegate.openRandomAccess(key);
    }

    @Override
    public InputStream openStream(String key) throws IOException {
        return delegate.openStream(key);
    }

    @Override
    public byte[] readAllBytes(String key) throws IOException {
        return delegate.readAllBytes(key);
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
    public String describe(String key) {
        return delegate.describe(key);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
