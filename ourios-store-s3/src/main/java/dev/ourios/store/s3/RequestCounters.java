package dev.ourios.store.s3;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the HTTP requests an {@link S3ObjectStore} sends, retries included (each attempt is billed and is what
 * a cost or latency budget must account for). Thread-safe.
 */
public final class RequestCounters {
    private final LongAdder lists = new LongAdder();
    private final LongAdder gets = new LongAdder();
    private final LongAdder getBytes = new LongAdder();
    private final LongAdder puts = new LongAdder();
    private final LongAdder deletes = new LongAdder();
    private final LongAdder heads = new LongAdder();

    /** A consistent-enough copy of the counters at one moment. */
    public record Snapshot(long lists, long gets, long getBytes, long puts, long deletes, long heads) {
        /** The requests made between {@code earlier} and this snapshot. */
        public Snapshot minus(Snapshot earlier) {
            return new Snapshot(lists - earlier.lists, gets - earlier.gets, getBytes - earlier.getBytes,
                    puts - earlier.puts, deletes - earlier.deletes, heads - earlier.heads);
        }

        public long requests() {
            return lists + gets + puts + deletes + heads;
        }
    }

    void list() {
        lists.increment();
    }

    void get() {
        gets.increment();
    }

    void getBytes(long n) {
        getBytes.add(n);
    }

    void put() {
        puts.increment();
    }

    void delete() {
        deletes.increment();
    }

    void head() {
        heads.increment();
    }

    public Snapshot snapshot() {
        return new Snapshot(lists.sum(), gets.sum(), getBytes.sum(), puts.sum(), deletes.sum(), heads.sum());
    }
}
