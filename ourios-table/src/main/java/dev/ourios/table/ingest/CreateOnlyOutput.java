package dev.ourios.table.ingest;

import dev.ourios.store.AtomicOutput;
import dev.ourios.store.ObjectStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * An {@link AtomicOutput} whose commit is a create-only publish ({@link ObjectStore#putIfAbsent}): the object
 * appears whole or not at all, and never replaces one of the same name. The bytes are held in memory until the
 * commit, because the store's create-only primitive takes the whole content; callers keep such files small (an
 * ingest flush of at most a few MiB).
 */
final class CreateOnlyOutput extends AtomicOutput {
    private final ObjectStore store;
    private final String key;
    private ByteArrayOutputStream buffer = new ByteArrayOutputStream(1 << 16);
    private boolean created;
    private boolean done;

    CreateOnlyOutput(ObjectStore store, String key) {
        this.store = store;
        this.key = key;
    }

    @Override
    public void write(int b) {
        buffer.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        buffer.write(b, off, len);
    }

    @Override
    public long position() {
        return buffer.size();
    }

    @Override
    public void commit() throws IOException {
        if (done) {
            throw new IllegalStateException("already committed or aborted: " + key);
        }
        done = true;
        byte[] bytes = buffer.toByteArray();
        buffer = null;
        created = store.putIfAbsent(key, bytes);
    }

    /** True when the commit created the object, false when an object of that name already existed. */
    boolean created() {
        return created;
    }

    @Override
    public void abort() {
        done = true;
        buffer = null;
    }
}
