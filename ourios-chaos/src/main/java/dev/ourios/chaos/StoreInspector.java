package dev.ourios.chaos;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.RecordedCommit;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Reads the store's state for the invariants: the partitions present, and the debris they hold. */
final class StoreInspector {
    private final ObjectStore store;
    private final TableReader reader;
    private final AuditLog audit;
    private final Path scratch;

    StoreInspector(ObjectStore store, Path scratch) {
        this.store = store;
        this.reader = new TableReader(store, new ManifestCodec());
        this.audit = new AuditLog(store, scratch); // exists() only: never writes
        this.scratch = scratch;
    }

    List<PartitionKey> partitions() throws IOException {
        return new TableLayout(store).partitions(PartitionFilter.all());
    }

    /** True if the store holds no data and no audit events: a run never starts on somebody's real store. */
    boolean isEmpty() throws IOException {
        return store.listDirectories(PartitionKey.DATA_ROOT).isEmpty()
                && store.listDirectories(PartitionKey.AUDIT_ROOT).isEmpty();
    }

    Debris debris() throws IOException {
        long temps = 0;
        long orphans = 0;
        long retired = 0;
        long superseded = 0;
        long ignored = 0;
        long extraLive = 0;
        long auditMissing = 0;
        for (PartitionKey p : partitions()) {
            PartitionSnapshot s = reader.snapshot(p);
            temps += s.temps().size();
            orphans += s.orphans().size();
            retired += s.retiredPresent().size();
            superseded += s.supersededManifests().size();
            ignored += s.ignored().size();
            extraLive += Math.max(0, s.live().size() - 1);
            Optional<CommitRecord> commit = s.manifest().flatMap(Manifest::commitRecord)
                    .flatMap(RecordedCommit::complete);
            if (commit.isPresent()) {
                CommitRecord c = commit.get();
                auditMissing += audit.exists(new AuditEvent(p, c.at(), c.inputs(), c.output(), s.generation(),
                        c.rows())) ? 0 : 1;
            }
        }
        return new Debris(temps, orphans, retired, superseded, ignored, extraLive, auditMissing, auditTemps(),
                scratchEntries());
    }

    /** Temp files anywhere under {@code audit/} (walked level by level, as every store can list). */
    private long auditTemps() throws IOException {
        List<String> prefixes = new ArrayList<>(List.of(PartitionKey.AUDIT_ROOT));
        long n = 0;
        while (!prefixes.isEmpty()) {
            String prefix = prefixes.remove(prefixes.size() - 1);
            for (String d : store.listDirectories(prefix)) {
                prefixes.add(prefix + d + "/");
            }
            for (ObjectInfo o : store.listObjects(prefix)) {
                n += FileNames.isTempFile(o.name()) ? 1 : 0;
            }
        }
        return n;
    }

    private long scratchEntries() throws IOException {
        if (!Files.isDirectory(scratch)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(scratch)) {
            return s.count();
        }
    }
}
