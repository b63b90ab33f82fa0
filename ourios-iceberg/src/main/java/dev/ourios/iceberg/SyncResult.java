package dev.ourios.iceberg;

import java.time.Duration;
import java.util.List;

/**
 * What one {@code ourios iceberg sync} did.
 *
 * @param changed           true if a new table version was committed
 * @param version           the table version current after the sync (N of {@code vN.metadata.json})
 * @param snapshotId        the current snapshot's id, 0 when the table has none
 * @param full              true if the sync covered every partition of the store (a full reconciliation), false
 *                          if only the partitions it was given
 * @param partitionsRead    partitions whose live set the sync resolved (one listing and at most one manifest read
 *                          each): every partition for a full sync, the given ones otherwise
 * @param partitionsChanged partitions whose live set differed from the view's
 * @param filesAdded        data files the new snapshot references that the previous one did not
 * @param filesRemoved      data files the previous snapshot referenced that are no longer live
 * @param liveFiles         data files the current snapshot references (its summary's {@code total-data-files})
 * @param columnsAdded      extra columns the schema gained, by name
 * @param attempts          commit attempts (more than one when another syncer committed first)
 * @param elapsed           wall time of the sync
 */
public record SyncResult(boolean changed, int version, long snapshotId, boolean full, int partitionsRead,
        int partitionsChanged, int filesAdded, int filesRemoved, int liveFiles, List<String> columnsAdded, int attempts, Duration elapsed) {
    public SyncResult {
        columnsAdded = List.copyOf(columnsAdded);
    }
}
