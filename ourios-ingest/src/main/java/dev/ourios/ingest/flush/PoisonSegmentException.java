package dev.ourios.ingest.flush;

import java.io.IOException;

/** A segment whose flush cannot succeed by retrying it: its bytes, not the store, are at fault. */
public final class PoisonSegmentException extends IOException {
    public PoisonSegmentException(String message) {
        super(message);
    }
}
