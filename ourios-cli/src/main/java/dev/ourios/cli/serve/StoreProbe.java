package dev.ourios.cli.serve;

import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import java.nio.file.Files;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The readiness check of {@code GET /readyz}: one cheap listing of {@code data/} (one LIST request on S3). A local
 * store also needs its root directory: listing a missing directory succeeds with nothing, but a missing root almost
 * always means a volume that is not mounted, and serving "no rows" from it would be wrong. Not ready while
 * draining, so a load balancer stops sending queries before the server stops accepting them.
 */
final class StoreProbe {
    private final ObjectStore store;
    private final BooleanSupplier draining;

    StoreProbe(ObjectStore store, BooleanSupplier draining) {
        this.store = store;
        this.draining = draining;
    }

    /** Empty when ready, else why not. */
    Optional<String> notReady() {
        if (draining.getAsBoolean()) {
            return Optional.of("shutting down");
        }
        if (store instanceof LocalObjectStore local && !Files.isDirectory(local.root())) {
            return Optional.of("store root " + local.root() + " is not a directory");
        }
        try {
            store.listDirectories("data/");
            return Optional.empty();
        } catch (Exception e) {
            return Optional.of("store unreachable: " + e.getMessage());
        }
    }
}
