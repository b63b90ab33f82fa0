package dev.ourios.table;

import dev.ourios.core.PartitionKey;
import java.util.List;

/**
 * What GC did in one partition.
 *
 * @param deletedKeys    keys deleted (in a dry run: keys that would be deleted), sorted
 * @param bytesReclaimed sum of their sizes as listed
 * @param errors         problems that made GC skip the partition or one object; empty when all went well
 * @param abortedUploads incomplete uploads aborted (in a dry run: that would be), as {@code key (upload id)}
 */
public record PartitionGcResult(PartitionKey partition, List<String> deletedKeys, long bytesReclaimed,
        List<String> errors, List<String> abortedUploads) {
    public PartitionGcResult {
        deletedKeys = List.copyOf(deletedKeys);
        errors = List.copyOf(errors);
        abortedUploads = List.copyOf(abortedUploads);
    }

    /** A result with no incomplete upload aborted. */
    public PartitionGcResult(PartitionKey partition, List<String> deletedKeys, long bytesReclaimed,
            List<String> errors) {
        this(partition, deletedKeys, bytesReclaimed, errors, List.of());
    }
}
