package dev.ourios.table;

import dev.ourios.core.PartitionKey;

/**
 * An hour that its day partition validly covers (STORAGE.md §4.15) was asked of a reader that reads hour
 * partitions alone. Its rows are in the day partition's files and its own files may be collected, so reading the
 * hour by itself could miss rows: the hour fails alone, as a partition with an invalid manifest does.
 */
public final class CoveredHourException extends ManifestException {
    private static final long serialVersionUID = 1L;

    public CoveredHourException(PartitionKey hour, ValidCover cover) {
        super(cover.dayManifest().key(), "hour " + hour + " is covered by the day partition " + cover.day().prefix()
                + " at generation " + cover.cover().generation() + "; this reader does not read day files");
    }
}
