package dev.ourios.compaction.audit;

import dev.ourios.compaction.Containment;
import dev.ourios.compaction.PlannedRewrite;
import dev.ourios.compaction.RewriteOutcome;
import dev.ourios.compaction.RewritePlan;
import dev.ourios.compaction.RewriteProtocol;
import dev.ourios.compaction.StagedRewrite;
import dev.ourios.core.FileNames;
import dev.ourios.core.Uuid7;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts the audit series (STORAGE.md §7.1): each sealed day of a tenant's audit series with more than one live
 * file is merged into one {@code <uuidv7>.compacted.parquet} by the compaction's protocol: one listing and the
 * day's manifest give generation N and the live files (plan); every file is read and checked
 * ({@link AuditFileReader}), its events summed as read and copied into the union of the audit schema and the inputs'
 * extra columns ({@link AuditUnion}), sorted by time (rewrite); the output is read back with the same checks and its
 * rows must be the events read plus one (verify);
 * it is published unnamed and {@code manifest.<N+1>.json} commits it create-only (commit); GC collects the day like
 * a partition, after the grace. The steps are the partitions' own: a day's compaction is a {@link RewritePlan} run
 * through the {@link RewriteProtocol}, so no failure in one day escapes it.
 *
 * <p>The compaction's own audit event is a row of its output ({@code event_type} {@code audit_compaction}), in the
 * day it compacted, not a file of its own. So a compaction leaves exactly one live file in the day and never makes
 * the day (or any other) a candidate again: only event files written into the day after its plan (a late or
 * re-emitted event) make it one, and each such compaction again leaves one file.
 *
 * <p>Sealed: the day ended more than {@link #SEAL} ago. Events are written in the day of their commit time, and a
 * sweep re-emits a lost event for a day after the commit; by then no event of the day is re-emitted any more, so a
 * re-emission never re-creates an event the compacted file already holds.
 */
public final class AuditCompactor {
    private static final Logger LOG = LoggerFactory.getLogger(AuditCompactor.class);
    /** How long after its end a day is compacted: the audit repair window (one day) plus an hour of margin. */
    public static final Duration SEAL = Duration.ofHours(25);
    public static final int EVENT_KIND_AUDIT_COMPACTION = 6;
    public static final String EVENT_TYPE_AUDIT_COMPACTION = "audit_compaction";

    /** What became of one day. */
    public record DayResult(AuditDay day, boolean committed, int filesIn, long events, long generation,
            String output, String error) {
    }

    private final ObjectStore store;
    private final TableReader reader;
    private final ManifestCommitter committer;
    private final GarbageCollector gc;
    private final Path scratchRoot;
    private final Clock clock;
    private final Uuid7 uuids;

    public AuditCompactor(ObjectStore store, TableReader reader, ManifestCommitter committer, GarbageCollector gc,
            Path scratchRoot, Clock clock, Uuid7 uuids) {
        this.store = store;
        this.reader = reader;
        this.committer = committer;
        this.gc = gc;
        this.scratchRoot = scratchRoot;
        this.clock = clock;
        this.uuids = uuids;
    }

    /** Every day of the tenants in scope (all when empty), oldest first. */
    public List<AuditDay> days(Optional<Set<String>> tenants) throws IOException {
        return new AuditSeries(store, reader).days(tenants);
    }

    /** GC, then a compaction of every sealed day with more than one live file; errors are reported per day. */
    public List<DayResult> sweep(Optional<Set<String>> tenants, Instant now) {
        List<DayResult> out = new ArrayList<>();
        List<AuditDay> days;
        try {
            days = days(tenants);
        } catch (Throwable t) {
            LOG.warn("audit compaction: listing the audit series failed: {}",
                    Containment.describe(Containment.contain(t)));
            return out;
        }
        for (AuditDay day : days) {
            DayResult r;
            try {
                gc.collect(day.label(), day.prefix());
                if (now.isBefore(day.end().plus(SEAL))) {
                    continue;
                }
                r = compact(day);
            } catch (Throwable t) {
                // GC records its problems rather than throwing, and compact reports every failure as the day's
                // result; this is the one catch for anything else, so one day never stops the others.
                String msg = Containment.describe(Containment.contain(t));
                LOG.debug("audit compaction of {} failed", day, t);
                r = new DayResult(day, false, 0, 0, -1, null, day + ": " + msg);
            }
            if (r.committed() || r.error() != null) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * Compacts one day if it has more than one live file: the day as a {@link DayRewrite} through the
     * {@link RewriteProtocol}, committed to the day's own manifest.
     */
    public DayResult compact(AuditDay day) {
        return new RewriteProtocol(committer).run(new DayRewrite(day));
    }

    /**
     * One day's compaction as a {@link RewritePlan}. It is the partition protocol throughout (plan on the day's
     * snapshot, rewrite, verify, create-only commit on top of the planned generation); what differs is data of the
     * plan: the commit goes to the day's directory ({@link PlannedRewrite#inDirectory}, not told to the live-set
     * listeners, since a day holds no log rows); the audit event is a row of the output, written before the commit,
     * so there is nothing to emit after it (an event file per compaction would make the day a candidate again); a
     * lost race is not retried, since the winner compacted the same day.
     */
    private final class DayRewrite implements RewritePlan<DayResult> {
        private final AuditDay day;

        DayRewrite(AuditDay day) {
            this.day = day;
        }

        @Override
        public PlannedRewrite plan() throws IOException {
            return PlannedRewrite.inDirectory(reader.snapshot(day.label(), day.prefix()), day.prefix());
        }

        @Override
        public StagedRewrite rewrite(PlannedRewrite planned) throws IOException {
            long generation = planned.generation();
            List<ObjectInfo> inputs = planned.snapshot().live().stream()
                    .sorted(Comparator.comparing(ObjectInfo::name)).toList();
            if (inputs.size() < 2) {
                return StagedRewrite.unchanged(inputs.size(), 0);
            }
            Path tmp = null;
            try {
                Files.createDirectories(scratchRoot);
                tmp = Files.createTempFile(scratchRoot, "audit-", ".parquet");
                // Every input is read whole and checked, and summed as read, before any is copied into the union.
                List<AuditFile> files = new ArrayList<>();
                Sum in = new Sum();
                for (ObjectInfo f : inputs) {
                    Files.write(tmp, store.readAllBytes(f.key()));
                    AuditFile file = AuditFileReader.read(tmp, store.describe(f.key()), day.tenantId());
                    file.rows().forEach(in::add);
                    files.add(file);
                }
                MessageType schema = AuditUnion.of(files);
                SimpleGroupFactory factory = new SimpleGroupFactory(schema);
                List<Group> rows = new ArrayList<>();
                for (AuditFile file : files) {
                    for (Group g : file.rows()) {
                        Group copy = factory.newGroup();
                        AuditUnion.copy(g, copy);
                        rows.add(copy);
                    }
                }
                files.clear();
                rows.sort(Comparator.comparingLong((Group g) -> g.getLong("timestamp", 0))
                        .thenComparing(Group::toString));
                String outputName = uuids.next() + FileNames.COMPACTED;
                Instant at = clock.instant();
                Group event = factory.newGroup()
                        .append("tenant_id", day.tenantId())
                        .append("timestamp", at.getEpochSecond() * 1_000_000_000L + at.getNano())
                        .append("event_kind", EVENT_KIND_AUDIT_COMPACTION)
                        .append("event_type", EVENT_TYPE_AUDIT_COMPACTION)
                        .append("compaction_partition", day.dayPath());
                Group list = event.addGroup("compaction_input_files");
                inputs.forEach(f -> list.addGroup("list").append("element", f.name()));
                event.append("compaction_output_file", outputName).append("compaction_generation", generation + 1)
                        .append("compaction_rows", (long) rows.size());
                rows.add(event);
                in.add(event);
                write(tmp, schema, rows);
                Sum out = new Sum();
                AuditFileReader.read(tmp, day + " output " + outputName, day.tenantId()).rows().forEach(out::add);
                byte[] bytes = Files.readAllBytes(tmp);
                long bytesIn = inputs.stream().mapToLong(ObjectInfo::size).sum();
                CommitRecord record = new CommitRecord(at, inputs.stream().map(ObjectInfo::name).toList(),
                        outputName, rows.size(), bytesIn, bytes.length, in.value());
                StagedRewrite staged = StagedRewrite.toCommit(record, inputs.size(), rows.size(), in.value(),
                        out.value(), true);
                if (staged.verified()) {
                    store.putIfAbsent(day.prefix() + outputName, bytes); // only verified rows are ever published
                }
                return staged;
            } finally {
                if (tmp != null) {
                    try {
                        Files.deleteIfExists(tmp);
                    } catch (IOException e) {
                        LOG.debug("could not delete {}", tmp, e);
                    }
                }
            }
        }

        @Override
        public Optional<AuditEvent> auditEvent(PlannedRewrite planned, CommitRecord record, long generation) {
            return Optional.empty(); // the compaction's event is a row of its output
        }

        @Override
        public DayResult report(RewriteOutcome outcome) {
            if (outcome instanceof RewriteOutcome.Committed c) {
                LOG.info("{}: {} event files compacted into {} at generation {}", day, c.staged().filesIn(),
                        c.record().output(), c.generation());
                return new DayResult(day, true, c.staged().filesIn(), c.record().rows(), c.generation(),
                        c.record().output(), null);
            }
            if (outcome instanceof RewriteOutcome.Unchanged u) {
                return new DayResult(day, false, u.staged().filesIn(), 0, u.planned().generation(), null, null);
            }
            if (outcome instanceof RewriteOutcome.Unverified u) {
                return new DayResult(day, false, u.staged().filesIn(), 0, u.planned().generation(), null, day
                        + ": checksum " + u.staged().outputChecksum() + " of the rows written differs from "
                        + u.staged().inputChecksum() + " of the rows read");
            }
            if (outcome instanceof RewriteOutcome.Lost l) {
                return new DayResult(day, false, l.staged().filesIn(), 0, l.planned().generation(), null, null);
            }
            if (outcome instanceof RewriteOutcome.Refused r) {
                return new DayResult(day, false, r.staged().filesIn(), 0, r.planned().generation(), null,
                        day + ": commit " + r.status() + ": " + r.detail());
            }
            RewriteOutcome.Failed f = (RewriteOutcome.Failed) outcome;
            return new DayResult(day, false, 0, 0, f.generation(-1), null,
                    day + ": " + Containment.describe(f.error()));
        }
    }

    private static void write(Path file, MessageType schema, List<Group> rows) throws IOException {
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withConf(new PlainParquetConfiguration()).withType(schema)
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                .withCompressionCodec(CompressionCodecName.ZSTD).build()) {
            for (Group g : rows) {
                w.write(g);
            }
        }
    }

    /**
     * An order-independent checksum of rows: their count and the sum of each row's {@link EventDigest}, which does
     * not depend on the schema a row was read with (the inputs' own, the output's union).
     */
    private static final class Sum {
        private long rows;
        private long a;
        private long b;

        void add(Group g) {
            byte[] h = EventDigest.of(g);
            ByteBuffer bb = ByteBuffer.wrap(h);
            rows++;
            a += bb.getLong();
            b += bb.getLong();
        }

        String value() {
            return rows + ":" + HexFormat.of().formatHex(ByteBuffer.allocate(16).putLong(a).putLong(b).array());
        }
    }
}
