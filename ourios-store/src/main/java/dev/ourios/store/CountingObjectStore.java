package dev.ourios.store;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * A view of a store that counts the requests made through it, so one piece of work (one partition's compaction)
 * can report its own cost while other work uses the same store at the same time. Closing the view does not close
 * the store.
 *
 * <p>Two ways of counting, chosen by the store underneath:
 * <ul>
 *   <li>a store that counts what it really sends per thread ({@link ThreadRequestCounts}, e.g. S3) is measured
 *       around every call: the difference on the calling thread is what that call cost, retries, listing pages,
 *       multipart parts and read-ahead windows included;</li>
 *   <li>any other store (local disk) is counted by what each call would be as an S3 request: a listing is one LIST,
 *       {@code stat} and opening for ranged reads one HEAD, each ranged read or opened stream one GET, each published
 *       object one PUT, each delete one DELETE. Nothing is sent anywhere; the numbers say what the same work would
 *       cost on object storage without read caching or multipart uploads.</li>
 * </ul>
 */
public final class CountingObjectStore implements ObjectStore {
    private final ObjectStore store;
    private final Optional<ThreadRequestCounts> measured;
    private final LongAdder list = new LongAdder();
    private final LongAdder head = new LongAdder();
    private final LongAdder get = new LongAdder();
    private final LongAdder getBytes = new LongAdder();
    private final LongAdder put = new LongAdder();
    private final LongAdder delete = new LongAdder();

    public CountingObjectStore(ObjectStore store) {
        this.store = store;
        this.measured = store instanceof ThreadRequestCounts t ? Optional.of(t) : Optional.empty();
    }

    /** The requests made through this view so far. */
    public StoreRequests requests() {
        return new StoreRequests(list.sum(), head.sum(), get.sum(), getBytes.sum(), put.sum(), delete.sum());
    }

    /** True if the counts are measured requests, false if they are the S3-equivalent model of local calls. */
    public boolean measured() {
        return measured.isPresent();
    }

    @Override
    public List<String> listDirectories(String dirPrefix) throws IOException {
        return call(new StoreRequests(1, 0, 0, 0, 0, 0), () -> store.listDirectories(dirPrefix));
    }

    @Override
    public List<ObjectInfo> listObjects(String dirPrefix) throws IOException {
        return call(new StoreRequests(1, 0, 0, 0, 0, 0), () -> store.listObjects(dirPrefix));
    }

    /** One LIST a page of 1,000 keys in the model, as S3 pages a listing without a delimiter. */
    @Override
    public List<ObjectInfo> listTree(String dirPrefix) throws IOException {
        if (measured.isPresent()) {
            return call(StoreRequests.NONE, () -> store.listTree(dirPrefix));
        }
        List<ObjectInfo> out = store.listTree(dirPrefix);
        list.add(Math.max(1, (out.size() + 999) / 1000));
        return out;
    }

    @Override
    public boolean isRemote() {
        return store.isRemote();
    }

    @Override
    public Optional<ObjectInfo> stat(String key) throws IOException {
        return call(new StoreRequests(0, 1, 0, 0, 0, 0), () -> store.stat(key));
    }

    @Override
    public RandomAccessInput openRandomAccess(String key) throws IOException {
        RandomAccessInput in = call(new StoreRequests(0, 1, 0, 0, 0, 0), () -> store.openRandomAccess(key));
        return new ForwardingRandomAccessInput(in) {
            @Override
            public void readFully(long position, byte[] buffer, int offset, int len) throws IOException {
                call(new StoreRequests(0, 0, 1, len, 0, 0), () -> {
                    delegate.readFully(position, buffer, offset, len);
                    return null;
                });
            }
        };
    }

    @Override
    public InputStream openStream(String key) throws IOException {
        InputStream in = call(new StoreRequests(0, 0, 1, 0, 0, 0), () -> store.openStream(key));
        if (measured.isPresent()) {
            return in; // the GET's bytes were counted from its response
        }
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    getBytes.increment();
                }
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n > 0) {
                    getBytes.add(n);
                }
                return n;
            }
        };
    }

    @Override
    public AtomicOutput create(String key) throws IOException {
        AtomicOutput out = call(StoreRequests.NONE, () -> store.create(key));
        return new ForwardingAtomicOutput(out) {
            @Override
            public void write(int b) throws IOException {
                call(StoreRequests.NONE, () -> {
                    delegate.write(b);
                    return null;
                });
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                call(StoreRequests.NONE, () -> {
                    delegate.write(b, off, len);
                    return null;
                });
            }

            @Override
            public void commit() throws IOException {
                call(new StoreRequests(0, 0, 0, 0, 1, 0), () -> {
                    delegate.commit();
                    return null;
                });
            }

            @Override
            public void abort() {
                // an abort sends a request only on a store that measures (S3 multipart abort)
                StoreRequests before = measured.map(ThreadRequestCounts::requestsOnCurrentThread)
                        .orElse(StoreRequests.NONE);
                delegate.abort();
                measured.ifPresent(m -> add(m.requestsOnCurrentThread().minus(before)));
            }
        };
    }

    @Override
    public boolean putIfAbsent(String key, byte[] content) throws IOException {
        return call(new StoreRequests(0, 0, 0, 0, 1, 0), () -> store.putIfAbsent(key, content));
    }

    @Override
    public void delete(String key) throws IOException {
        call(new StoreRequests(0, 0, 0, 0, 0, 1), () -> {
            store.delete(key);
            return null;
        });
    }

    @Override
    public String describe(String key) {
        return store.describe(key);
    }

    @Override
    public String toString() {
        return "counting view of " + store;
    }

    /** Runs one store call and counts it: measured if the store can, else by its S3-equivalent {@code model}. */
    private <T> T call(StoreRequests model, IoCall<T> c) throws IOException {
        if (measured.isEmpty()) {
            try {
                return c.call();
            } finally {
                add(model); // a failed request was still sent
            }
        }
        ThreadRequestCounts m = measured.get();
        StoreRequests before = m.requestsOnCurrentThread();
        try {
            return c.call();
        } finally {
            add(m.requestsOnCurrentThread().minus(before));
        }
    }

    private void add(StoreRequests r) {
        list.add(r.list());
        head.add(r.head());
        get.add(r.get());
        getBytes.add(r.getBytes());
        put.add(r.put());
        delete.add(r.delete());
    }

    @FunctionalInterface
    private interface IoCall<T> {
        T call() throws IOException;
    }
}
