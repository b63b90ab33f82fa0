package dev.ourios.ingest.flush;

import dev.ourios.core.FileNames;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.otlp.DecodedLogs;
import dev.ourios.otlp.OtlpLogsDecoder;
import dev.ourios.ingest.wal.SealedSegment;
import dev.ourios.ingest.wal.WalEntry;
import dev.ourios.ingest.wal.WalFrames;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.LiveSetChanges;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Turns one sealed segment into ingest files: its records grouped by (tenant, hour), one file per partition, named
 * by {@link FlushNames} and published create-only. Everything here is a function of the segment's bytes (records in
 * frame order, partitions in key order), so flushing a segment again, after a crash at any point, lands the same
 * files under the same names and the create-only publish skips those already there: no row is written twice.
 *
 * <p>A file landed by an earlier flush may be gone by the time the segment is flushed again: compacted into the
 * partition and collected by GC while the process was down. Its name then stays in the partition manifest's
 * retired list (STORAGE.md §3.5), so a flush that may repeat an earlier one ({@code mayRepeat}: a recovered segment,
 * or a retry) reads the partition first and skips every name the store holds or the manifest retired. Even without
 * that check a re-landed copy would stay invisible, since readers never read a retired name; the check keeps the
 * store from holding it at all.
 */
public final class SegmentFlusher {
    private final IngestWriter writer;
    private final TableReader tables;
    private final OtlpLogsDecoder decoder;
    private final FlushListener listener;
    private final LiveSetChanges changes;
    private final LandedRows landedRows;

    public SegmentFlusher(IngestWriter writer, TableReader tables, OtlpLogsDecoder decoder, FlushListener listener) {
        this(writer, tables, decoder, listener, LiveSetChanges.NONE);
    }

    /** As above, telling {@code changes} of each partition as soon as a file this flush published is in it. */
    public SegmentFlusher(IngestWriter writer, TableReader tables, OtlpLogsDecoder decoder, FlushListener listener,
            LiveSetChanges changes) {
        this(writer, tables, decoder, listener, changes, LandedRows.NONE);
    }

    /** As above, handing {@code landedRows} the rows of each file this flush published, once it is in. */
    public SegmentFlusher(IngestWriter writer, TableReader tables, OtlpLogsDecoder decoder, FlushListener listener,
            LiveSetChanges changes, LandedRows landedRows) {
        this.landedRows = landedRows;
        this.changes = changes;
        this.writer = writer;
        this.tables = tables;
        this.decoder = decoder;
        this.listener = listener;
    }

    /**
     * Publishes every record of the segment (idempotently); the caller deletes the segment afterwards.
     *
     * @param mayRepeat the segment may have been flushed before (recovered, or an earlier attempt failed): names
     *                  an earlier flush landed, even those since collected, are skipped
     */
    public List<IngestWriter.LandedFile> flush(SealedSegment sealed, boolean mayRepeat) throws IOException {
        WalFrames.Contents contents = WalFrames.read(sealed.segment().path());
        if (contents.validLength() < sealed.bytes()) {
            // A sealed segment was fsynced whole; a shorter valid prefix now means the disk lost data.
            throw new PoisonSegmentException("WAL segment " + sealed.segment().path() + " reads " + contents.validLength()
                    + " valid bytes of " + sealed.bytes() + " sealed");
        }
        Map<PartitionKey, List<LogRecord>> byPartition = new TreeMap<>();
        for (WalEntry e : contents.entries()) {
            ExportLogsServiceRequest request = ExportLogsServiceRequest.parseFrom(e.payload());
            DecodedLogs decoded = decoder.decode(e.tenant(), request);
            for (LogRecord r : decoded.records()) {
                byPartition.computeIfAbsent(r.partitionKey(), k -> new ArrayList<>()).add(r);
            }
        }
        List<IngestWriter.LandedFile> landed = new ArrayList<>();
        for (var p : byPartition.entrySet()) {
            PartitionKey key = p.getKey();
            UUID name = FlushNames.of(sealed.segment(), key, 0);
            if (mayRepeat && landedBefore(key, name + FileNames.PARQUET)) {
                listener.file(key.tenantId(), p.getValue().size(), 0L, false);
                continue;
            }
            Optional<IngestWriter.LandedFile> f = writer.writeFileIfAbsent(key, name, p.getValue());
            if (f.isPresent()) {
                landed.add(f.get());
                // A file found already there was published (and told) by an earlier attempt, or by an earlier
                // process, whose files a reader of the whole store picks up at start.
                changes.changed(key);
                landedRows.landed(key, p.getValue());
            }
            listener.file(key.tenantId(), p.getValue().size(), f.map(IngestWriter.LandedFile::bytes).orElse(0L),
                    f.isPresent());
        }
        return landed;
    }

    /**
     * The name is in the partition (live or retired, not yet collected), its manifest retired it, or the day partition
     * that covers the hour accounts for it (STORAGE.md §4.15). Only this process lands names of this segment, so an
     * answer of no cannot be overtaken before the publish.
     */
    private boolean landedBefore(PartitionKey partition, String name) throws IOException {
        PartitionSnapshot s = tables.hourSnapshot(partition);
        return s.isPresent(name) || s.manifest().map(m -> m.retiredNames().contains(name)).orElse(false)
                || s.cover().map(c -> c.cover().names().contains(name)).orElse(false);
    }
}
