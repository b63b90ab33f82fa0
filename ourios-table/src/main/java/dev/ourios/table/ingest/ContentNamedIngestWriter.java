package dev.ourios.table.ingest;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.parquet.write.WrittenFile;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ReferenceTakeover;
import java.io.IOException;
import java.time.Clock;
import java.util.Collection;

/**
 * Lands one batch of one partition as an ingest file named after its content ({@link ContentName}) with
 * create-only publish: if a file of that name is already there, the same rows already landed and nothing is
 * written. The writer is deterministic (storage.md, section 2.4), so re-landing the same batch is idempotent.
 * The file is built in memory first, so batches must be bounded. A partition still ruled by the reference
 * implementation's {@code manifest.json} is taken over first (STORAGE.md §3.6), so the file landed is live.
 */
public final class ContentNamedIngestWriter {
    private final ObjectStore store;
    private final WriterOptions options;
    private final ReferenceTakeover takeover;

    public ContentNamedIngestWriter(ObjectStore store) {
        this(store, WriterOptions.ingest());
    }

    public ContentNamedIngestWriter(ObjectStore store, WriterOptions options) {
        this.store = store;
        this.options = options;
        this.takeover = new ReferenceTakeover(store, Clock.systemUTC());
    }

    /** Writes {@code rows} (all of {@code partition}) unless a file with exactly these bytes is already there. */
    public Landing land(PartitionKey partition, Collection<LogRecord> rows) throws IOException {
        MemoryOutput out = new MemoryOutput();
        WrittenFile f;
        try (LogFileWriter w = new LogFileWriter(out, options)) {
            for (LogRecord r : rows) {
                if (!r.partitionKey().equals(partition)) {
                    throw new IllegalArgumentException("row of " + r.partitionKey() + " cannot be written into "
                            + partition);
                }
                w.write(r);
            }
            f = w.commit();
        }
        byte[] bytes = out.toByteArray();
        String key = partition.dataPrefix() + ContentName.of(partition, bytes);
        takeover.ensureOurs(partition);
        boolean created = store.putIfAbsent(key, bytes);
        return new Landing(new IngestWriter.LandedFile(partition, key, f.rows(), f.bytes()), created);
    }

    /** One batch's file, and whether this call created it ({@code false}: it was already there). */
    public record Landing(IngestWriter.LandedFile file, boolean created) {
    }
}
