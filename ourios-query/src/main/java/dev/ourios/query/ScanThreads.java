package dev.ourios.query;

/**
 * How many threads read a query's partition, and how much of a file must be left unread for a second thread to
 * share it (a thread and a second reader of the file cost more than a few small row groups).
 */
record ScanThreads(int threads, long minSharedBytes) {
    /** Compressed bytes of unread kept row groups below which a file is not shared: about a millisecond of work. */
    static final long DEFAULT_MIN_SHARED_BYTES = 8L << 20;

    ScanThreads {
        if (threads < 1) {
            throw new IllegalArgumentException("scanThreads must be at least 1, got " + threads);
        }
        if (minSharedBytes < 0) {
            throw new IllegalArgumentException("minSharedBytes must not be negative, got " + minSharedBytes);
        }
    }

    static ScanThreads of(int threads) {
        return new ScanThreads(threads, DEFAULT_MIN_SHARED_BYTES);
    }
}
