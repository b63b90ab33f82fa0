package dev.ourios.iceberg;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the store lives, as the absolute URI other engines open: {@code file:/data/store/} for a local store,
 * {@code s3://bucket/prefix/} for S3. Iceberg metadata names every file by such a URI; this turns store keys into
 * URIs and back, refusing a URI outside the store (the view references our files only).
 *
 * @param root the store root URI, ending in '/'
 */
public record StoreLocation(String root) {
    public StoreLocation {
        Objects.requireNonNull(root, "root is null");
        if (!root.endsWith("/")) {
            root = root + "/";
        }
    }

    /** The location of a local store directory ({@code file:/abs/path/}). */
    public static StoreLocation local(Path dir) {
        return new StoreLocation("file:" + dir.toAbsolutePath().normalize() + "/");
    }

    /**
     * The location of a {@code --store} value: {@code s3://bucket/prefix} as it is, a path or {@code file://} URI
     * as an absolute {@code file:} URI.
     */
    public static StoreLocation of(String storeUri) {
        if (storeUri.startsWith("s3://")) {
            return new StoreLocation(storeUri);
        }
        String path = storeUri.startsWith("file://") ? storeUri.substring("file://".length()) : storeUri;
        return local(Path.of(path));
    }

    /** The URI of a store key. */
    public String uri(String key) {
        return root + key;
    }

    /** The store key of a URI this location produced; also accepts {@code file:///} for {@code file:/}. */
    public String key(String uri) {
        String u = uri;
        if (u.startsWith("file:///") && root.startsWith("file:/")) {
            u = "file:/" + u.substring("file:///".length());
        }
        if (!u.startsWith(root) || u.length() == root.length()) {
            throw new IllegalArgumentException("'" + uri + "' is not a file of the store at " + root);
        }
        return u.substring(root.length());
    }
}
