package dev.ourios.cli;

import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.StoreException;
import dev.ourios.store.StoreMarker;
import dev.ourios.store.s3.NoSuchBucketException;
import dev.ourios.store.s3.S3ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Decides, before a command does anything, whether the store it was given exists and can be read. Listing a
 * missing directory or bucket prefix reads as an empty store, so without this a cron {@code verify} against an
 * unmounted volume reports all clear. Bad input (a missing or unreadable directory, a regular file, a bucket that
 * does not exist) is a {@link UsageException}, exit 2; an S3 endpoint that cannot be reached is a failure of the
 * job, exit 1. Every message names the store as the user gave it.
 */
public final class StoreCheck {
    private StoreCheck() {
    }

    /** For commands that read: the store must already exist. */
    public static void requireExisting(ObjectStore store, String label) {
        if (store instanceof LocalObjectStore local) {
            requireDirectory(local.root(), label);
        } else if (store instanceof S3ObjectStore s3) {
            requireBucket(s3, label);
        }
    }

    /**
     * For commands that only write ({@code ingest}, {@code generate}): a missing local directory is created, as
     * any writer creates its output; a regular file or an unreadable directory is still refused.
     */
    public static void requireWritable(ObjectStore store, String label) {
        if (store instanceof LocalObjectStore local) {
            Path root = local.root();
            if (!Files.exists(root) && !Files.isSymbolicLink(root)) {
                try {
                    Files.createDirectories(root);
                } catch (IOException e) {
                    throw new UsageException(label + ": cannot create the store directory: " + e.getMessage(), e);
                }
            }
            requireDirectory(root, label);
            if (!Files.isWritable(root)) {
                throw new UsageException(label + ": the store directory is not writable (permission denied)");
            }
        } else if (store instanceof S3ObjectStore s3) {
            requireBucket(s3, label);
        }
    }

    /**
     * For {@code serve}, the ingester, before it writes anything: an existing store is taken as it is; a missing
     * local directory whose parent exists is to be created (a first start), one under a missing parent is refused
     * naming that parent (usually a volume that is not mounted). Nothing is written here: {@link #prepareServable}
     * does that once every other setting has been checked.
     *
     * @return the directory to create, if one is missing
     */
    public static java.util.Optional<Path> requireServable(ObjectStore store, String label) {
        if (store instanceof LocalObjectStore local) {
            Path root = local.root();
            if (!Files.exists(root) && !Files.isSymbolicLink(root)) {
                Path parent = root.toAbsolutePath().normalize().getParent();
                if (parent == null || !Files.isDirectory(parent)) {
                    throw new UsageException(label + ": cannot create the store: its parent directory " + parent
                            + " does not exist (is the volume mounted?)");
                }
                return java.util.Optional.of(root);
            }
            requireDirectory(root, label);
        } else if (store instanceof S3ObjectStore s3) {
            requireBucket(s3, label);
        }
        return java.util.Optional.empty();
    }

    /** Creates the directory {@link #requireServable} found missing, if any, and writes the marker if missing. */
    public static void prepareServable(ObjectStore store, String label, java.util.Optional<Path> create) {
        if (create.isPresent()) {
            try {
                Files.createDirectory(create.get());
            } catch (IOException e) {
                throw new UsageException(label + ": cannot create the store directory: " + e.getMessage(), e);
            }
        }
        requireMarker(store, label);
    }

    /** Writes the store's identity marker when it has none (a new store, or one made before markers: adopted). */
    public static void requireMarker(ObjectStore store, String label) {
        try {
            StoreMarker.ensure(store);
        } catch (IOException e) {
            throw new JobFailedException(label + ": cannot write the store marker " + StoreMarker.KEY + ": "
                    + e.getMessage(), e);
        }
    }

    private static void requireDirectory(Path root, String label) {
        if (!Files.exists(root)) {
            throw new UsageException(label + ": no such directory (is the volume mounted? a store is created by "
                    + "'ourios serve', 'ourios ingest' or 'ourios generate')");
        }
        if (!Files.isDirectory(root)) {
            throw new UsageException(label + ": not a directory (a store is a directory, file:///... or "
                    + "s3://bucket/prefix)");
        }
        if (!Files.isReadable(root) || !Files.isExecutable(root)) {
            throw new UsageException(label + ": the store directory is not readable (permission denied)");
        }
    }

    private static void requireBucket(S3ObjectStore s3, String label) {
        try {
            s3.checkBucket();
        } catch (NoSuchBucketException e) {
            throw new UsageException(label + ": " + e.getMessage(), e);
        } catch (StoreException e) {
            throw new JobFailedException(label + ": " + e.getMessage(), e);
        }
    }
}
