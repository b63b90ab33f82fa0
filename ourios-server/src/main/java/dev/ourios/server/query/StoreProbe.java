package dev.ourios.server.query;

import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.StoreMarker;
import java.nio.file.Files;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The readiness check of {@code GET /readyz}: one cheap listing of {@code data/} (one LIST request on S3) and a
 * stat of the store's identity marker (written at start, so its absence means the store went away). A local
 * store also needs its root directory: listing a missing directory succeeds with nothing, but a missing root almost
 * always means a volume that is not mounted, and serving "no rows" from it would be wrong, so the query endpoints
 * refuse with 503 too ({@link #unreadable()}). Not ready while draining, so a load balancer stops sending queries
 * before the server stops accepting them; not ready either while the ingest path cannot take records (its write-ahead
 * log cannot be written, or its flushes to the store fail). Reasons never name a server path: the operator's log has it.
 *
 * <p>Internal to ourios-server: public so that {@link dev.ourios.server.Server} can assemble it.
 */
public final class StoreProbe {
    private final ObjectStore store;
    private final BooleanSupplier draining;
    private final Supplier<Optional<String>> ingest;

    public StoreProbe(ObjectStore store, BooleanSupplier draining) {
        this(store, draining, Optional::empty);
    }

    /** @param ingest why the ingest path cannot take records (the WAL cannot be written, flushes fail), if so */
    public StoreProbe(ObjectStore store, BooleanSupplier draining, Supplier<Optional<String>> ingest) {
        this.store = store;
        this.draining = draining;
        this.ingest = ingest;
    }

    /** Empty when ready, else why not. */
    Optional<String> notReady() {
        if (draining.getAsBoolean()) {
            return Optional.of("shutting down");
        }
        Optional<String> unreadable = unreadable();
        if (unreadable.isPresent()) {
            return unreadable;
        }
        try {
            store.listDirectories("data/");
            if (!StoreMarker.present(store)) {
                // Written at start: gone now means another volume (or none) under the mount point, or a bucket
                // or prefix emptied. Nothing is flushed there until it is back.
                return Optional.of("the store's identity marker " + StoreMarker.KEY
                        + " is missing (a volume not mounted? a bucket or prefix deleted?)");
            }
        } catch (Exception e) {
            return Optional.of("store unreachable (" + e.getClass().getSimpleName() + ")");
        }
        return ingest.get();
    }

    /** Without a request to the store: why the store cannot be read (a local root that is not a directory). */
    Optional<String> unreadable() {
        if (store instanceof LocalObjectStore local && !Files.isDirectory(local.root())) {
            return Optional.of("the store root is not a directory (a volume not mounted?)");
        }
        return Optional.empty();
    }
}
