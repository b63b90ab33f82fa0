package dev.ourios.table.ingest;

import dev.ourios.core.FileNames;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.parquet.write.WrittenFile;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ReferenceTakeover;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The ingest side: lands rows as {@code <uuidv7>.parquet} files in their (tenant, hour) partitions, one file per
 * partition per call, each published atomically. Rows are grouped by their own partition key (tenant and
 * effective hour), so an ingest file can never mix partitions. A partition still ruled by the reference
 * implementation's {@code manifest.json} is taken over first (STORAGE.md §3.6), so the file landed is live.
 */
public final class IngestWriter {
    private final ObjectStore store;
    private final Uuid7 uuids;
    private final WriterOptions options;
    private final ReferenceTakeover takeover;

    public IngestWriter(ObjectStore store, Uuid7 uuids, WriterOptions options) {
        this.store = store;
        this.uuids = uuids;
        this.options = options;
        this.takeover = new ReferenceTakeover(store, Clock.systemUTC());
    }

    public IngestWriter(ObjectStore store) {
        this(store, Uuid7.system(), WriterOptions.ingest());
    }

    /** Writes {@code rows} (all of one partition) as one new ingest file. */
    public LandedFile writeFile(PartitionKey partition, Collection<LogRecord> rows) throws IOException {
        String name = uuids.next() + FileNames.PARQUET;
        String key = partition.dataPrefix() + name;
        takeover.ensureOurs(partition);
        try (LogFileWriter w = new LogFileWriter(store.create(key), options)) {
            for (LogRecord r : rows) {
                PartitionKey own = r.partitionKey();
                if (!own.equals(partition)) {
                    throw new IllegalArgumentException("row of " + own + " cannot be written into " + partition);
                }
                w.write(r);
            }
            WrittenFile f = w.commit();
            return new LandedFile(partition, key, f.rows(), f.bytes());
        }
    }

    /**
     * Writes {@code rows} (all of one partition) as the ingest file {@code <name>.parquet}, create-only: when an
     * object of that name exists already, nothing changes and the result is empty. A writer that derives the name
     * from its input (the ingest write-ahead log does) can so write the same rows any number of times and land them
     * exactly once. The row count is known up front, so the bloom filters are sized from it (one insertion per value
     * rather than one per adaptive candidate).
     */
    public Optional<LandedFile> writeFileIfAbsent(PartitionKey partition, UUID name, Collection<LogRecord> rows)
            throws IOException {
        String key = partition.dataPrefix() + name + FileNames.PARQUET;
        takeover.ensureOurs(partition);
        CreateOnlyOutput out = new CreateOnlyOutput(store, key);
        try (LogFileWriter w = new LogFileWriter(out, options.withBloomRowsPerGroup(Math.max(1, rows.size())))) {
            for (LogRecord r : rows) {
                PartitionKey own = r.partitionKey();
                if (!own.equals(partition)) {
                    throw new IllegalArgumentException("row of " + own + " cannot be written into " + partition);
                }
                w.write(r);
            }
            WrittenFile f = w.commit();
            return out.created() ? Optional.of(new LandedFile(partition, key, f.rows(), f.bytes())) : Optional.empty();
        }
    }

    /** Groups rows by partition and lands one file per partition, in partition order. */
    public List<LandedFile> land(Collection<LogRecord> rows) throws IOException {
        Map<PartitionKey, List<LogRecord>> byPartition = new LinkedHashMap<>();
        for (LogRecord r : rows) {
            byPartition.computeIfAbsent(r.partitionKey(), k -> new ArrayList<>()).add(r);
        }
        List<LandedFile> out = new ArrayList<>();
        for (var e : byPartition.entrySet().stream().sorted(Map.Entry.comparingByKey()).toList()) {
            out.add(writeFile(e.getKey(), e.getValue()));
        }
        return out;
    }

    /** One published ingest file. */
    public record LandedFile(PartitionKey partition, String key, long rows, long bytes) {
    }
}
