package dev.ourios.table;

import dev.ourios.core.PartitionKey;

/**
 * Told of every partition whose live set a component of this process changed: a manifest it committed (or may have
 * committed: an unknown outcome), or an ingest file it landed. What mirrors live sets elsewhere (the Iceberg view
 * that {@code ourios serve} keeps) then reads only these partitions instead of every partition of the store.
 *
 * <p>Called from whichever thread made the change, right after it became visible; implementations must be
 * thread-safe, do no I/O and return at once.
 */
@FunctionalInterface
public interface LiveSetChanges {
    /** Tells no one: for a process with nothing that mirrors live sets. */
    LiveSetChanges NONE = partition -> {
    };

    void changed(PartitionKey partition);
}
