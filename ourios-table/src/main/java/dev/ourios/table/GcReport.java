package dev.ourios.table;

import java.util.List;

/** The outcome of a GC run, one entry per partition visited (in walk order). */
public record GcReport(boolean dryRun, List<PartitionGcResult> partitions) {
    public GcReport {
        partitions = List.copyOf(partitions);
    }

    public List<String> deletedKeys() {
        return partitions.stream().flatMap(p -> p.deletedKeys().stream()).toList();
    }

    public long bytesReclaimed() {
        return partitions.stream().mapToLong(PartitionGcResult::bytesReclaimed).sum();
    }

    /** Incomplete uploads aborted (or, in a dry run, that would be), as {@code key (upload id)}. */
    public List<String> abortedUploads() {
        return partitions.stream().flatMap(p -> p.abortedUploads().stream()).toList();
    }

    public List<String> errors() {
        return partitions.stream().flatMap(p -> p.errors().stream()).toList();
    }
}
