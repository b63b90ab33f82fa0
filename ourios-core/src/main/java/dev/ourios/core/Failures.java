package dev.ourios.core;

import java.io.IOException;

/** Failures caught on one thread and raised again on another (helper threads hand theirs to the caller). */
public final class Failures {
    private Failures() {
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
