package dev.ourios.compaction;

import dev.ourios.core.PartitionKey;
import java.io.IOException;

/**
 * A shared rewrite that this process cannot finish yet: its group is written (or another process's), and some
 * group's share record is not there (docs/spec/storage.md, "Sharing one rewrite between compactor processes"). Not a
 * failure: the partition's result is a noop, and the process whose record completes the set commits.
 */
public final class SharesPending extends IOException {
    private static final long serialVersionUID = 1L;

    SharesPending(PartitionKey partition, int present, int groups) {
        super(partition + ": waiting for shares of other compactors (" + present + " of " + groups
                + " groups written)");
    }
}
