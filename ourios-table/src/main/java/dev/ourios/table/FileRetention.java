package dev.ourios.table;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * Files a reader outside the manifests still needs (for example an Iceberg view's retained snapshots). GC asks
 * once per run, before it collects any partition, and never deletes a key the answer retains: the manifests decide
 * what may go, a retention can only keep more.
 */
@FunctionalInterface
public interface FileRetention {
    /** Retains nothing beyond what the manifests keep. */
    FileRetention NONE = (grace, dryRun) -> key -> false;

    /**
     * Prepares one GC run: a retention may first drop its own references older than {@code grace} (and must not
     * when {@code dryRun}), then answers which store keys GC must keep.
     *
     * @throws IOException if what is retained cannot be known; GC then deletes nothing
     */
    Predicate<String> retained(Duration grace, boolean dryRun) throws IOException;
}
