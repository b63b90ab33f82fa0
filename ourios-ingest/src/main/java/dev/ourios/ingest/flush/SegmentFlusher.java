package dev.ourios.ingest.flush;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.ingest.otlp.DecodedLogs;
import dev.ourios.ingest.otlp.OtlpLogsDecoder;
import dev.ourios.ingest.wal.SealedSegment;
import dev.ourios.ingest.wal.WalEntry;
import dev.ourios.ingest.wal.WalFrames;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Turns one sealed segment into ingest files: its records grouped by (tenant, hour), one file per partition, named
 * by {@link FlushNames} and published create-only. Everything here is a function of the segment's bytes (records in
 * frame order, partitions in key order), so flushing a segment again, after a crash at any point, lands the same
 * files under the same names and the create-only publish skips those already there: no row is written twice.
 */
public final class SegmentFlusher {
    private final IngestWriter writer;
    private final OtlpLogsDecoder decoder;
    private final FlushListener listener;

    public SegmentFlusher(IngestWriter writer, OtlpLogsDecoder decoder, FlushListener listener) {
        this.writer = writer;
        this.decoder = decoder;
        this.listener = listener;
    }

    /** Publishes every record of the segment (idempotently); the caller deletes the segment afterwards. */
    public List<IngestWriter.LandedFile> flush(SealedSegment sealed) throws IOException {
        WalFrames.Contents contents = WalFrames.read(sealed.segment().path());
        if (contents.validLength() < sealed.bytes()) {
            // A sealed segment was fsynced whole; a shorter valid prefix now means the disk lost data.
            throw new IOException("WAL segment " + sealed.segment().path() + " reads " + contents.validLength()
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
            Optional<IngestWriter.LandedFile> f = writer.writeFileIfAbsent(key,
                    FlushNames.of(sealed.segment(), key, 0), p.getValue());
            f.ifPresent(landed::add);
            listener.file(key.tenantId(), p.getValue().size(), f.map(IngestWriter.LandedFile::bytes).orElse(0L),
                    f.isPresent());
        }
        return landed;
    }
}
