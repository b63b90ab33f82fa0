package dev.ourios.store.s3;

import dev.ourios.store.StoreRequests;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the HTTP requests an {@link S3ObjectStore} sends, retries included (each attempt is billed and is what
 * a cost or latency budget must account for). Thread-safe. Besides the store-wide totals it keeps a tally per
 * sending thread: the client is synchronous, so a request is sent (and counted) on the thread that asked for it,
 * which is what lets one compaction's requests be told apart from those of compactions running beside it.
 */
public final class RequestCounters {
    private static final int LIST = 0;
    private static final int GET = 1;
    private static final int GET_BYTES = 2;
    private static final int PUT = 3;
    private static final int DELETE = 4;
    private static final int HEAD = 5;

    /** Per-thread tallies, only ever touched by their own thread. */
    private final ThreadLocal<long[]> perThread = ThreadLocal.withInitial(() -> new long[6]);
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
        perThread.get()[LIST]++;
    }

    void get() {
        gets.increment();
        perThread.get()[GET]++;
    }

    void getBytes(long n) {
        getBytes.add(n);
        perThread.get()[GET_BYTES] += n;
    }

    void put() {
        puts.increment();
        perThread.get()[PUT]++;
    }

    void delete() {
        deletes.increment();
        perThread.get()[DELETE]++;
    }

    void head() {
        heads.increment();
        perThread.get()[HEAD]++;
    }

    public Snapshot snapshot() {
        return new Snapshot(lists.sum(), gets.sum(), getBytes.sum(), puts.sum(), deletes.sum(), heads.sum());
    }

    /** What the current thread has sent so far (for differences around one call). */
    public StoreRequests currentThread() {
        long[] t = perThread.get();
        return new StoreRequests(t[LIST], t[HEAD], t[GET], t[GET_BYTES], t[PUT], t[DELETE]);
    }
}
