package dev.ourios.store;

import java.nio.file.Path;

/** Parses the {@code --store} value: a directory path, {@code file:///…} or {@code s3://bucket/prefix}. */
public final class StoreUri {
    private StoreUri() {
    }

    /** Opens a local store; S3 URIs are handled by the S3 module once present. */
    public static ObjectStore openLocal(String uri) {
        String path = uri.startsWith("file://") ? uri.substring("file://".length()) : uri;
        return new LocalObjectStore(Path.of(path));
    }

    public static boolean isS3(String uri) {
        return uri.startsWith("s3://");
    }
}
