package dev.ourios.table;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure our manifests rule a partition before a writer of ours lands a file in it (STORAGE.md §3.6). While
 * the reference implementation's {@code manifest.json} rules, every file it does not name is an orphan, so a file
 * landed there would be invisible and collected by GC. A partition without {@code manifest.json} costs one HEAD;
 * one with it is taken over by a create-only commit that keeps the live set as it is.
 */
public final class ReferenceTakeover {
    private static final Logger LOG = LoggerFactory.getLogger(ReferenceTakeover.class);
    /** A takeover writes no output, so the committer's output-age bound never applies; any positive value does. */
    private static final Duration NO_OUTPUT = Duration.ofDays(1);
    private static final int ATTEMPTS = 3;

    private final ObjectStore store;
    private final TableReader reader;
    private final ManifestCommitter committer;
    private final Clock clock;

    public ReferenceTakeover(ObjectStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        ManifestCodec codec = new ManifestCodec();
        this.reader = new TableReader(store, codec);
        this.committer = new ManifestCommitter(store, codec, clock, NO_OUTPUT);
    }

    /**
     * Returns once no {@code manifest.json} rules {@code partition}: at once when there is none, else after our
     * takeover commit or someone else's.
     *
     * @return true if this call committed the takeover
     * @throws ManifestException if the partition's manifest is invalid (nothing should be landed there)
     * @throws IOException       if the takeover's outcome is unknown or it could not be made; nothing was landed
     */
    public boolean ensureOurs(PartitionKey partition) throws IOException {
        if (store.stat(partition.dataPrefix() + ManifestKeys.REFERENCE_NAME).isEmpty()) {
            return false;
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            PartitionSnapshot s = reader.snapshot(partition);
            if (!s.ruledByReference()) {
                return false;
            }
            CommitResult r = committer.commit(partition, s.generation(), NextManifest.takeover(s, clock.instant()));
            switch (r.status()) {
                case COMMITTED -> {
                    LOG.info("took {} over from the reference implementation's manifest.json at generation {}",
                            partition, r.generation());
                    return true;
                }
                case LOST -> {
                    // Someone else committed the next generation: the next snapshot shows our manifests rule.
                }
                default -> throw new IOException("could not take " + partition + " over from the reference "
                        + "implementation's manifest.json (" + r.status() + ": " + r.detail() + ")");
            }
        }
        throw new IOException("could not take " + partition + " over from the reference implementation's "
                + "manifest.json: lost " + ATTEMPTS + " commit races in a row");
    }
}
