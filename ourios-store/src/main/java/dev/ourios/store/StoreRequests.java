package dev.ourios.store;

/**
 * Requests sent to an object store, by S3 request class: LIST (ListObjectsV2 pages), HEAD, GET (and the bytes the
 * GETs returned), PUT (PutObject and each multipart call: create, every part, complete) and DELETE (DeleteObject and
 * multipart aborts). On S3 these are what is billed and what a latency budget pays for.
 */
public record StoreRequests(long list, long head, long get, long getBytes, long put, long delete) {
    public static final StoreRequests NONE = new StoreRequests(0, 0, 0, 0, 0, 0);

    public StoreRequests plus(StoreRequests o) {
        return new StoreRequests(list + o.list, head + o.head, get + o.get, getBytes + o.getBytes, put + o.put,
                delete + o.delete);
    }

    public StoreRequests minus(StoreRequests o) {
        return new StoreRequests(list - o.list, head - o.head, get - o.get, getBytes - o.getBytes, put - o.put,
                delete - o.delete);
    }

    /** Every request, whatever its class (bytes excluded). */
    public long total() {
        return list + head + get + put + delete;
    }
}
