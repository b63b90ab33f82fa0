package dev.ourios.bench;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import java.nio.file.Path;
import java.util.List;

/**
 * One generated partition on local disk: the store it lives in, its key, its live input files (sorted by name, as
 * a compaction plan wants them) and how many rows they hold.
 */
public record Fixture(String shape, Path root, LocalObjectStore store, PartitionKey partition,
        List<ObjectInfo> inputs, long rows) {

    public Fixture {
        inputs = List.copyOf(inputs);
    }

    public long bytes() {
        return inputs.stream().mapToLong(ObjectInfo::size).sum();
    }

    public double mib() {
        return bytes() / (1024.0 * 1024.0);
    }

    /** Absolute paths of the input files, for baselines that read them directly (DuckDB). */
    public List<Path> paths() {
        return inputs.stream().map(o -> root.resolve(o.key())).toList();
    }

    public String describe() {
        return String.format("%s: %d files, %,d rows, %,d bytes (%.1f MiB)", shape, inputs.size(), rows, bytes(),
                mib());
    }
}
