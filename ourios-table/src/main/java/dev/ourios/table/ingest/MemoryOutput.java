package dev.ourios.table.ingest;

import dev.ourios.store.AtomicOutput;
import java.io.ByteArrayOutputStream;

/**
 * An {@link AtomicOutput} that keeps the object in memory, so its bytes can be hashed into its name before it is
 * published create-only ({@link dev.ourios.store.ObjectStore#putIfAbsent}). Meant for files of a bounded batch.
 */
final class MemoryOutput extends AtomicOutput {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
    private boolean committed;
    private boolean aborted;

    @Override
    public void write(int b) {
        check();
        bytes.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        check();
        bytes.write(b, off, len);
    }

    private void check() {
        if (committed || aborted) {
            throw new IllegalStateException("output already " + (committed ? "committed" : "aborted"));
        }
    }

    @Override
    public long position() {
        return bytes.size();
    }

    @Override
    public void commit() {
        check();
        committed = true;
    }

    @Override
    public void abort() {
        if (!committed) {
            aborted = true;
            bytes.reset();
        }
    }

    /** The committed object. */
    byte[] toByteArray() {
        if (!committed) {
            throw new IllegalStateException("not committed");
        }
        return bytes.toByteArray();
    }
}
