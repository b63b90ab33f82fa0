package dev.ourios.store;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * An {@link ObjectStore} that forwards every call to a delegate: the base of decorators (request counting, test
 * probes, fault hooks) that override only the calls they watch.
 */
public abstract class ForwardingObjectStore implements ObjectStore {
    protected final ObjectStore delegate;

    protected ForwardingObjectStore(ObjectStore delegate) {
        this.delegate = delegate;
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
    public List<ObjectInfo> listTree(String dirPrefix) throws IOException {
        return delegate.listTree(dirPrefix);
    }

    @Override
    public Optional<DirectoryStamp> directoryStamp(String dirPrefix) throws IOException {
        return delegate.directoryStamp(dirPrefix);
    }

    @Override
    public boolean marksChanges() {
        return delegate.marksChanges();
    }

    @Override
    public boolean isRemote() {
        return delegate.isRemote();
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
    public void delete(String key) throws IOException {
        delegate.delete(key);
    }

    @Override
    public List<IncompleteUpload> incompleteUploads(String dirPrefix) throws IOException {
        return delegate.incompleteUploads(dirPrefix);
    }

    @Override
    public void abortUpload(IncompleteUpload upload) throws IOException {
        delegate.abortUpload(upload);
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
