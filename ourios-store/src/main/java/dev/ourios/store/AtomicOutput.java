package dev.ourios.store;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A streamed write that becomes visible under its final key only on {@link #commit()}, all at once. Until then
 * no reader can see any of it; {@link #abort()} (or close without commit) leaves nothing visible behind.
 */
public abstract class AtomicOutput extends OutputStream {
    /** Bytes written so far. */
    public abstract long position();

    /** Publishes the object atomically under its key. */
    public abstract void commit() throws IOException;

    /** Discards everything written; idempotent, and a no-op after commit. */
    public abstract void abort();

    /** Closing without commit aborts. */
    @Override
    public void close() {
        abort();
    }
}
