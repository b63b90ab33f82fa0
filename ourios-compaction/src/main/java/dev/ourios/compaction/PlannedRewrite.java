package dev.ourios.compaction;

import dev.ourios.core.PartitionKey;
import dev.ourios.table.PartitionSnapshot;
import java.util.Objects;
import java.util.Optional;

/**
 * The plan step's result: the snapshot a rewrite builds on (the generation its commit must follow and the live set
 * the next manifest derives from) and where that manifest goes.
 *
 * @param generation the generation the commit must follow: the snapshot's, or the one a plan made from it names
 * @param directory empty for a data partition (its data prefix; the commit is told to the live-set listeners); a
 *                  directory that keeps files and manifests as a partition does (a day partition, whose commit is
 *                  told to the listeners as its day's first hour; an audit day), whose snapshot's partition is then
 *                  only a label
 */
public record PlannedRewrite(PartitionSnapshot snapshot, long generation, Optional<String> directory) {
    public PlannedRewrite {
        Objects.requireNonNull(snapshot, "snapshot is null");
        Objects.requireNonNull(directory, "directory is null");
    }

    /** A data partition's rewrite on top of {@code snapshot}. */
    public static PlannedRewrite of(PartitionSnapshot snapshot) {
        return new PlannedRewrite(snapshot, snapshot.generation(), Optional.empty());
    }

    /** A rewrite of the directory {@code prefix}, on top of {@code snapshot} (labelled by its partition). */
    public static PlannedRewrite inDirectory(PartitionSnapshot snapshot, String prefix) {
        return new PlannedRewrite(snapshot, snapshot.generation(), Optional.of(prefix));
    }

    public PartitionKey partition() {
        return snapshot.partition();
    }
}
