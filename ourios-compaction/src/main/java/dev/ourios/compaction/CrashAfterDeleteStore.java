package dev.ourios.compaction;

import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.ObjectStore;
import java.io.IOException;

/**
 * TEST-ONLY: the store GC deletes through when {@link CrashPoint#MID_GC} is armed; it reaches that point after each
 * delete, so the process dies right after GC's first one. GC lives in ourios-table and knows nothing of crash
 * points; wrapping its store here keeps the hook out of it. Never built unless the point is armed.
 */
final class CrashAfterDeleteStore extends ForwardingObjectStore {

    CrashAfterDeleteStore(ObjectStore delegate) {
        super(delegate);
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
}
