package dev.ourios.store;

import java.io.Closeable;
import java.io.IOException;

/** Ranged reads of one immutable object: what a Parquet reader needs (footer first, then column chunks). */
public interface RandomAccessInput extends Closeable {
    long length();

    /** Reads exactly {@code len} bytes at {@code position}; EOFException if the object is shorter. */
    void readFully(long position, byte[] buffer, int offset, int len) throws IOException;

    /**
     * Whether each read is a request with a latency worth megabytes of transfer (S3: tens of milliseconds per GET),
     * so that one read over a gap beats several reads around it. Local files: false.
     */
    default boolean requestsAreCostly() {
        return false;
    }
}
