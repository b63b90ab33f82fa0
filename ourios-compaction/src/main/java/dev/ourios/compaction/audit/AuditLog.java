package dev.ourios.compaction.audit;

import dev.ourios.compaction.plan.ScratchOwner;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.CommitAudit;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.DayPartition;
import dev.ourios.table.Manifest;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.RecordedCommit;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.UUID;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * Writes audit events (compactions, expiries, deletions) as Parquet under {@code audit/tenant_id=<enc>/year=/month=/day=/<uuidv7>.parquet},
 * one file per event, day-partitioned by the event time. The file name is a UUIDv7 whose time part is the event's
 * millisecond and whose other bits are a hash of (tenant, partition, generation): emitting the same event twice
 * addresses the same key, and the create-only put makes the second emission a no-op. That is what lets a sweep
 * re-emit the event of a commit whose process died before auditing it, from the manifest's commit record.
 */
public final class AuditLog {
    static final MessageType SCHEMA = Types.buildMessage()
            .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("tenant_id")
            .required(PrimitiveTypeName.INT64)
            .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.NANOS)).named("timestamp")
            .required(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.intType(8, false)).named("event_kind")
            .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("event_type")
            .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("reason")
            .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("compaction_partition")
            .optionalList().requiredElement(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType())
            .named("compaction_input_files")
            .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("compaction_output_file")
            .optional(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.intType(64, false))
            .named("compaction_generation")
            .optional(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.intType(64, false)).named("compaction_rows")
            .optional(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.intType(64, false)).named("rows_removed")
            .optionalList().requiredElement(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType())
            .named("compaction_output_files")
            .named("audit_event");

    private final ObjectStore store;
    private final Path scratchRoot;

    public AuditLog(ObjectStore store, Path scratchRoot) {
        this.store = store;
        this.scratchRoot = scratchRoot;
    }

    /** The key this event is (or will be) stored under. */
    public static String keyOf(AuditEvent e) {
        ZonedDateTime t = e.timestamp().atZone(ZoneOffset.UTC);
        return PartitionKey.AUDIT_ROOT + PartitionKey.tenantSegment(e.partition().tenantId())
                + String.format("/year=%04d/month=%02d/day=%02d/", t.getYear(), t.getMonthValue(), t.getDayOfMonth())
                + eventId(e) + ".parquet";
    }

    /**
     * Writes the event unless it is recorded already: its file is there, or its day's manifest retired the name
     * (an audit-day compaction merged it, and GC may have collected the file since). So a commit's event can be
     * re-emitted however long after the commit, into a day compacted meanwhile, and is still recorded once: a
     * re-emitted event that was never written becomes a live file of that day, which the next audit sweep compacts.
     *
     * @param days reads a day's manifest (its retired names)
     * @return true if this call wrote it
     */
    public boolean emitOnce(AuditEvent e, TableReader days) throws IOException {
        if (recorded(e, days)) {
            return false;
        }
        return store.putIfAbsent(keyOf(e), encode(e));
    }

    /**
     * True if the event is recorded: its file is there, or its day's manifest retired the name (STORAGE.md §4.2
     * step 6).
     *
     * @param days reads a day's manifest (its retired names)
     */
    public boolean recorded(AuditEvent e, TableReader days) throws IOException {
        String key = keyOf(e);
        if (store.stat(key).isPresent()) {
            return true;
        }
        AuditDay day = new AuditDay(e.partition().tenantId(), e.timestamp().atZone(ZoneOffset.UTC).toLocalDate());
        String name = key.substring(key.lastIndexOf('/') + 1);
        PartitionSnapshot snapshot = days.snapshot(day.label(), day.prefix());
        return snapshot.manifest().map(m -> m.retiredNames().contains(name)).orElse(false);
    }

    /**
     * GC's audit hold (STORAGE.md §5): a manifest's commit counts as audited when its record is incomplete (not a
     * commit of ours, nothing to emit) or its event is recorded.
     */
    public CommitAudit commitAudit(TableReader days) {
        return new CommitAudit() {
            @Override
            public boolean recorded(PartitionKey partition, Manifest manifest) throws IOException {
                Optional<CommitRecord> c = manifest.commitRecord().flatMap(RecordedCommit::complete);
                return c.isEmpty() || AuditLog.this.recorded(AuditEvent.of(partition, manifest.generation(), c.get()),
                        days);
            }

            @Override
            public boolean recordedDay(DayPartition day, Manifest manifest) throws IOException {
                Optional<CommitRecord> c = manifest.commitRecord().flatMap(RecordedCommit::complete);
                return c.isEmpty() || AuditLog.this.recorded(AuditEvent.ofDay(day, manifest.generation(), c.get()),
                        days);
            }
        };
    }

    /** True if the event is already in the store. */
    public boolean exists(AuditEvent e) throws IOException {
        return store.stat(keyOf(e)).isPresent();
    }

    /**
     * Writes the event unless it is already there.
     *
     * @return true if this call wrote it
     */
    public boolean emit(AuditEvent e) throws IOException {
        String key = keyOf(e);
        if (store.stat(key).isPresent()) {
            return false;
        }
        return store.putIfAbsent(key, encode(e));
    }

    byte[] encode(AuditEvent e) throws IOException {
        Files.createDirectories(scratchRoot);
        Path tmp = Files.createTempFile(scratchRoot, ScratchOwner.current().prefix("audit"), ".parquet");
        try {
            SimpleGroupFactory f = new SimpleGroupFactory(SCHEMA);
            Group g = f.newGroup()
                    .append("tenant_id", e.partition().tenantId())
                    .append("timestamp", e.timestamp().getEpochSecond() * 1_000_000_000L + e.timestamp().getNano())
                    .append("event_kind", e.eventKind())
                    .append("event_type", e.eventType());
            if (e.reason() != null) {
                g.append("reason", e.reason());
            }
            g.append("compaction_partition", e.partitionPath());
            Group list = g.addGroup("compaction_input_files");
            for (String in : e.inputFiles()) {
                list.addGroup("list").append("element", in);
            }
            if (e.outputFile() != null) {
                g.append("compaction_output_file", e.outputFile());
            }
            g.append("compaction_generation", e.generation()).append("compaction_rows", e.rows());
            if (e.kind() != CommitKind.COMPACT) {
                g.append("rows_removed", e.rowsRemoved());
            }
            if (!e.outputFiles().isEmpty()) {
                Group outputs = g.addGroup("compaction_output_files");
                for (String out : e.outputFiles()) {
                    outputs.addGroup("list").append("element", out);
                }
            }
            try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(tmp))
                    .withConf(new PlainParquetConfiguration()).withType(SCHEMA)
                    .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                    .withCompressionCodec(CompressionCodecName.ZSTD).build()) {
                w.write(g);
            }
            return Files.readAllBytes(tmp);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A UUIDv7 derived from the event's identity: time bits from the event, the rest from a SHA-256. */
    static UUID eventId(AuditEvent e) {
        byte[] h;
        try {
            h = MessageDigest.getInstance("SHA-256").digest((e.partition().tenantId() + "\0"
                    + e.partitionPath() + "\0" + e.generation()).getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is always available", ex);
        }
        ByteBuffer b = ByteBuffer.wrap(h);
        long millis = e.timestamp().toEpochMilli();
        long msb = (millis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | (b.getLong() & 0x0FFFL);
        long lsb = (b.getLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }
}
