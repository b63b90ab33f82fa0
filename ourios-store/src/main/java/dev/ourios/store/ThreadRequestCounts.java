package dev.ourios.store;

/**
 * A store that counts the requests it really sends (retries, pagination and multipart calls included) per calling
 * thread. Valid for stores whose requests run on the caller's thread (a synchronous HTTP client), which lets a
 * {@link CountingObjectStore} attribute exact counts to one piece of work while other threads use the same store.
 */
public interface ThreadRequestCounts {
    /** Requests sent by the current thread since it first used this store; callers take differences. */
    StoreRequests requestsOnCurrentThread();
}
