package dev.ourios.iceberg;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.DayPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.avro.Avro;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFile;

/**
 * The position deletes that hide a day file's dead rows from the view (storage.md section 10): rows of hours the day
 * partition covers but no longer validly (an expired hour, or one an hour commit took back). The positions are
 * found by reading the file's rows once; the delete is a deletion vector in the {@code timestamp_ns} form (format 3)
 * and an Avro position delete file in the {@code long} form (format 2). Its name records the data file and the dead
 * hours it hides, so a later sync knows without reading whether it still fits.
 */
final class DeadRowDeletes {
    /** Where the view keeps its delete files: its own metadata, collected by snapshot expiry (section 10.4). */
    static final String DIRECTORY = "deletes/";
    private static final String PARQUET = ".parquet";
    private static final Pattern NAME = Pattern.compile("-dead-([0-9a-f]{6})-[0-9a-f-]{36}\\.(puffin|avro)$");

    private final ObjectStore store;
    private final IcebergView view;
    private final FileIO io;
    private final ViewForm form;

    DeadRowDeletes(ObjectStore store, IcebergView view, FileIO io, ViewForm form) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.view = Objects.requireNonNull(view, "view is null");
        this.io = Objects.requireNonNull(io, "io is null");
        this.form = Objects.requireNonNull(form, "form is null");
    }

    /**
     * The store key of the data file a delete file of the view refers to, from its name
     * ({@code deletes/<data file key without .parquet>-dead-…}); empty for a delete file not written by a sync.
     */
    static Optional<String> dataKey(ViewLayout layout, StoreLocation location, DeleteFile delete) {
        String key = location.key(delete.location());
        String prefix = layout.metadataPrefix() + DIRECTORY;
        Matcher m = NAME.matcher(key);
        if (!key.startsWith(prefix) || !m.find()) {
            return Optional.empty();
        }
        return Optional.of(key.substring(prefix.length(), m.start()) + PARQUET);
    }

    /** The dead hours (bit {@code h} for hour {@code h}) a delete file of the view hides, from its name. */
    static int deadHours(DeleteFile delete) {
        Matcher m = NAME.matcher(delete.location());
        if (!m.find()) {
            return -1; // not one of ours: never equal to a day file's dead hours, so it is replaced
        }
        return Integer.parseInt(m.group(1), 16);
    }

    /**
     * Writes the delete of {@code file}'s rows of its dead hours, or returns empty when the file holds none (a void
     * cover whose rows a deletion already removed).
     *
     * @throws IOException if the file cannot be read, or holds a row outside its tenant and day (section 2.5)
     */
    Optional<DeleteFile> write(StoreLiveSet.LiveFile file, PartitionSpec daySpec) throws IOException {
        DayPartition day = file.day().orElseThrow();
        String key = file.object().key();
        long[] positions = deadPositions(key, day, file.deadHours());
        if (positions.length == 0) {
            return Optional.empty();
        }
        PartitionData partition = ViewPartitions.dayValue(daySpec, day);
        String dataPath = view.location().uri(key);
        // The data file's key, its dead hours and a unique tail: a later sync reads both back from the name.
        String name = key.substring(0, key.length() - PARQUET.length())
                + String.format("-dead-%06x-", file.deadHours()) + UUID.randomUUID()
                + (form == ViewForm.LONG ? ".avro" : ".puffin");
        OutputFile out = io.newOutputFile(view.location().uri(view.layout().metadataPrefix() + DIRECTORY + name));
        if (form == ViewForm.LONG) {
            PositionDeleteWriter<Void> w = Avro.writeDeletes(out).withSpec(daySpec).withPartition(partition)
                    .buildPositionWriter();
            PositionDelete<Void> d = PositionDelete.create();
            try (w) {
                for (long pos : positions) {
                    w.write(d.set(dataPath, pos));
                }
            }
            return Optional.of(w.toDeleteFile());
        }
        BaseDVFileWriter w = new BaseDVFileWriter(() -> out, path -> null);
        try (w) {
            for (long pos : positions) {
                w.delete(dataPath, pos, daySpec, partition);
            }
        }
        List<DeleteFile> files = w.result().deleteFiles();
        return Optional.of(files.get(0));
    }

    /** Deletes delete files a lost commit wrote (best effort: snapshot expiry never sees them). */
    void discard(List<DeleteFile> written) {
        for (DeleteFile f : written) {
            try {
                io.deleteFile(f.location());
            } catch (UncheckedIOException e) {
                org.slf4j.LoggerFactory.getLogger(DeadRowDeletes.class)
                        .warn("could not delete the unused delete file {}: {}", f.location(), e.getMessage());
            }
        }
    }

    /** The positions of the file's rows of the dead hours, ascending. */
    private long[] deadPositions(String key, DayPartition day, int deadHours) throws IOException {
        java.util.stream.LongStream.Builder out = java.util.stream.LongStream.builder();
        long position = 0;
        try (LogFileReader in = LogFileReader.open(store, key, ReadOptions.all())) {
            while (in.hasNext()) {
                LogRecord r = in.next();
                PartitionKey hour = r.partitionKey();
                if (!DayPartition.of(hour).equals(day)) {
                    throw new IOException(store.describe(key) + ": row " + position + " is of " + hour
                            + ", outside its day partition " + day);
                }
                if ((deadHours & (1 << hour.hour())) != 0) {
                    out.add(position);
                }
                position++;
            }
        }
        return out.build().toArray();
    }
}
