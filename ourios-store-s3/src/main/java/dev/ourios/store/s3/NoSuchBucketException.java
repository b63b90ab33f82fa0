package dev.ourios.store.s3;

import dev.ourios.store.StoreException;

/**
 * The bucket of an {@code s3://bucket/prefix} store does not exist: a configuration error (a typo, the wrong
 * account or endpoint) rather than a failure of the store, so callers can refuse it as bad input.
 */
public final class NoSuchBucketException extends StoreException {
    private static final long serialVersionUID = 1L;

    public NoSuchBucketException(String message, Throwable cause) {
        super(message, cause);
    }
}
