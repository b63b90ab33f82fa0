package dev.ourios.core;

import java.io.IOException;

/** Failures caught on one thread and raised again on another (helper threads hand theirs to the caller). */
public final class Failures {
    private Failures() {
    }

    /**
     * Records {@code t} as the first failure of several threads' work when none is recorded yet, else as suppressed
     * by that first one (not by itself: the same failure reported twice is recorded once).
     */
    public static void keepFirst(java.util.concurrent.atomic.AtomicReference<Throwable> first, Throwable t) {
        if (!first.compareAndSet(null, t) && first.get() != t) {
            first.get().addSuppressed(t);
        }
    }

    /** Throws {@code t} as it is when it is an IOException, a RuntimeException or an Error; else wrapped. */
    public static void rethrow(Throwable t) throws IOException {
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error err) {
            throw err;
        }
        throw new IOException(t);
    }
}
