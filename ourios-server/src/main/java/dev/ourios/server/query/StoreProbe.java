package dev.ourios.server.query;

import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import java.nio.file.Files;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The readiness check of {@code GET /readyz}: one cheap listing of {@code data/} (one LIST request on S3). A local
 * store also needs its root directory: listing a missing directory succeeds with nothing, but a missing root almost
 * always means a volume that is not mounted, and serving "no rows" from it would be wrong, so the query endpoints
 * refuse with 503 too ({@link #unreadable()}). Not ready while draining, so a load balancer stops sending queries
 * before the server stops accepting them. Reasons never name a server path: the operator's log has it.
 *
 * <p>Internal to ourios-server: public so that {@link dev.ourios.server.Server} can assemble it.
 */
public final class StoreProbe {
    private final ObjectStore store;
    private final BooleanSupplier draining;

    public StoreProbe(ObjectStore store, BooleanSupplier draining) {
        this.store = store;
        this.draining = draining;
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
            return Optional.empty();
        } catch (Exception e) {
            return Optional.of("store unreachable (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** Without a request to the store: why the store cannot be read (a local root that is not a directory). */
    Optional<String> unreadable() {
        if (store instanceof LocalObjectStore local && !Files.isDirectory(local.root())) {
            return Optional.of("the store root is not a directory (a volume not mounted?)");
        }
        return Optional.empty();
    }
}
