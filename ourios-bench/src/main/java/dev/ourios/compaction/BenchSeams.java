package dev.ourios.compaction;

import dev.ourios.core.Uuid7;
import dev.ourios.store.ObjectStore;
import java.nio.file.Path;

/**
 * The benchmark's view of package-private seams of the compaction module (this class lives in the bench module
 * but in the compaction package, so the product's public API stays as it is).
 */
public final class BenchSeams {
    private BenchSeams() {
    }

    /** The sorted rewrite with row hashing replaced by row counting: what the checksum verification costs. */
    public static PartitionRewriter sortedWithoutChecksums(ObjectStore store, Path scratch) {
        return new SortedRewriter(store, scratch, Uuid7.system(), OutputFault.NONE, false);
    }
}
