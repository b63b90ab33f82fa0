package dev.ourios.store;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * The object store the whole product runs on: local disk or S3. Shaped to what S3 can do (no rename, no append):
 * keys are '/'-separated paths relative to the store root; a "directory" is a key prefix ending in '/'.
 *
 * <p>Listings are delimiter listings (one level) and are sorted by key. Because the prefix given must end in '/',
 * listing is segment-wise: {@code tenant_id=a/} never matches {@code tenant_id=ab/}. {@link #listTree} lists a
 * whole subtree at once, for a reader that needs every object of a small subtree (one LIST request per 1,000 keys
 * on S3, where a walk costs one per directory).
 */
public interface ObjectStore extends AutoCloseable {

    /** Names (without trailing '/') of the immediate sub-directories of {@code dirPrefix}, sorted. */
    List<String> listDirectories(String dirPrefix) throws IOException;

    /** The objects directly under {@code dirPrefix} (not in sub-directories), sorted by key. */
    List<ObjectInfo> listObjects(String dirPrefix) throws IOException;

    /**
     * The stamp of the directory {@code dirPrefix} as its own metadata gives it in one cheap call, or empty where the
     * store has no such thing (an object store's prefixes are not directories) or the directory does not exist.
     */
    default Optional<DirectoryStamp> directoryStamp(String dirPrefix) throws IOException {
        return Optional.empty();
    }

    /**
     * Whether every change of a directory's entries made through this store is bracketed by a change mark in its
     * parent (docs/spec/storage.md 3.4, "Change marks"), so that a directory's unchanged stamp vouches for its
     * sub-directories' entries too.
     */
    default boolean marksChanges() {
        return false;
    }

    /**
     * Every object under {@code dirPrefix} at any depth, sorted by key; as {@link #listObjects}, an absent prefix
     * lists nothing. This default walks the subtree one level at a time; a store that lists a subtree in fewer
     * requests (S3, without a delimiter) overrides it.
     */
    default List<ObjectInfo> listTree(String dirPrefix) throws IOException {
        List<ObjectInfo> out = new java.util.ArrayList<>(listObjects(dirPrefix));
        for (String dir : listDirectories(dirPrefix)) {
            out.addAll(listTree(dirPrefix + dir + "/"));
        }
        out.sort(java.util.Comparator.comparing(ObjectInfo::key));
        return out;
    }

    /**
     * Whether each request waits on a network round trip (an S3 store), so that a reader gains by issuing
     * independent requests at once rather than one after the other; false for a local directory, where requests
     * cost CPU rather than waiting.
     */
    default boolean isRemote() {
        return false;
    }

    /** Size and modification time of one object, or empty if it does not exist. */
    Optional<ObjectInfo> stat(String key) throws IOException;

    /** Opens an object for ranged reads; NoSuchObjectException if absent. */
    RandomAccessInput openRandomAccess(String key) throws IOException;

    /** Streams a whole object; NoSuchObjectException if absent. */
    InputStream openStream(String key) throws IOException;

    /** Reads a whole (small) object. */
    default byte[] readAllBytes(String key) throws IOException {
        try (InputStream in = openStream(key)) {
            return in.readAllBytes();
        }
    }

    /** Starts an atomic, streamed write to {@code key}; an existing object is replaced on commit. */
    AtomicOutput create(String key) throws IOException;

    /** Atomically publishes small content. */
    default void put(String key, byte[] content) throws IOException {
        try (AtomicOutput out = create(key)) {
            out.write(content);
            out.commit();
        }
    }

    /**
     * Create-only publish: writes {@code content} under {@code key} only if no object has that key, atomically.
     *
     * @return true if this call created the object, false if it already existed (nothing changed)
     */
    boolean putIfAbsent(String key, byte[] content) throws IOException;

    /**
     * Incomplete uploads of keys under {@code dirPrefix}, at any depth (see {@link IncompleteUpload}). Stores
     * whose writes cannot be left half-done by a dying writer (the local file system: a temp file, which GC finds
     * by listing) have none.
     */
    default List<IncompleteUpload> incompleteUploads(String dirPrefix) throws IOException {
        return List.of();
    }

    /** Aborts an incomplete upload, dropping its parts; aborting one already gone succeeds (idempotent). */
    default void abortUpload(IncompleteUpload upload) throws IOException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no incomplete uploads");
    }

    /** Deletes an object; deleting an absent object succeeds (idempotent). */
    void delete(String key) throws IOException;

    /** A human-readable location for messages, e.g. {@code /data/store/<key>} or {@code s3://b/p/<key>}. */
    String describe(String key);

    @Override
    default void close() throws IOException {
    }
}
