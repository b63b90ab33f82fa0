package dev.ourios.store;

import java.time.Instant;

/** One object in a listing: its full key, size in bytes and last-modified time. */
public record ObjectInfo(String key, long size, Instant lastModified) {
    /** The last path component of the key. */
    public String name() {
        int slash = key.lastIndexOf('/');
        return slash < 0 ? key : key.substring(slash + 1);
    }
}
