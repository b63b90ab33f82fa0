package dev.ourios.compaction.sweep;

import dev.ourios.compaction.plan.ScratchOwner;
import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects what a killed compactor leaves outside the data partitions, which the partition GC never visits:
 * temp files of an interrupted audit write under {@code audit/} (only the current and previous UTC day, where a
 * crash can leave them, so the cost per sweep stays constant), and {@code sort-*} / {@code audit-*} entries in the
 * local scratch directory.
 *
 * <p>A scratch entry's name carries its owner's process id and start time ({@link ScratchOwner}). An entry whose
 * owner still runs is never removed, whatever its age: a long merge may not touch its directory for hours. An entry
 * whose owner is gone is removed once older than the scratch debris age. An entry without an owner in its name
 * cannot be told apart from a live one, so it is kept for {@link #UNOWNED_SCRATCH_AGE}.
 */
public final class DebrisCollector {
    private static final Logger LOG = LoggerFactory.getLogger(DebrisCollector.class);
    /** How long a scratch entry whose name names no owner is kept: longer than any merge is expected to run. */
    public static final Duration UNOWNED_SCRATCH_AGE = Duration.ofHours(6);

    private final ObjectStore store;
    private final TableLayout layout;
    private final Path scratchDir;
    private final Duration grace;
    private final Duration scratchDebrisAge;
    private final Clock clock;
    private final boolean dryRun;

    /**
     * @param grace            age after which an audit temp file in the store is debris (the GC grace)
     * @param scratchDebrisAge age after which a scratch entry of a process that is gone is debris
     */
    public DebrisCollector(ObjectStore store, TableLayout layout, Path scratchDir, Duration grace,
            Duration scratchDebrisAge, Clock clock, boolean dryRun) {
        this.store = store;
        this.layout = layout;
        this.scratchDir = scratchDir;
        this.grace = grace;
        this.scratchDebrisAge = scratchDebrisAge;
        this.clock = clock;
        this.dryRun = dryRun;
    }

    /**
     * Removes (or, in a dry run, lists) the debris and reports it. Only the tenants in the filter's scope are
     * visited, so a tenant-scoped sweep never lists another tenant's prefix.
     */
    public DebrisReport collect(PartitionFilter scope) {
        DebrisReport audit = collectAuditTemps(scope);
        DebrisReport scratch = collectScratch();
        List<String> all = new ArrayList<>(audit.removed());
        all.addAll(scratch.removed());
        return new DebrisReport(all, audit.bytes() + scratch.bytes());
    }

    DebrisReport collectAuditTemps(PartitionFilter scope) {
        Instant now = clock.instant();
        Instant cutoff = now.minus(grace);
        List<String> removed = new ArrayList<>();
        long bytes = 0;
        try {
            for (String tenant : scope.tenants().isPresent() ? new TreeSet<>(scope.tenants().get())
                    : layout.tenants()) {
                for (LocalDate day : new LocalDate[] {LocalDate.ofInstant(now, ZoneOffset.UTC).minusDays(1),
                        LocalDate.ofInstant(now, ZoneOffset.UTC)}) {
                    String dir = PartitionKey.AUDIT_ROOT + PartitionKey.tenantSegment(tenant) + String.format(
                            "/year=%04d/month=%02d/day=%02d/", day.getYear(), day.getMonthValue(), day.getDayOfMonth());
                    for (ObjectInfo o : store.listObjects(dir)) {
                        if (FileNames.isTempFile(o.name()) && o.lastModified().isBefore(cutoff)) {
                            if (!dryRun) {
                                store.delete(o.key());
                            }
                            removed.add(store.describe(o.key()));
                            bytes += o.size();
                        }
                    }
                }
            }
        } catch (IOException e) {
            LOG.warn("audit temp-file collection: {}", e.getMessage());
        }
        return new DebrisReport(removed, bytes);
    }

    DebrisReport collectScratch() {
        if (!Files.isDirectory(scratchDir)) {
            return DebrisReport.NONE;
        }
        Instant now = clock.instant();
        List<String> removed = new ArrayList<>();
        long bytes = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(scratchDir)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (!(name.startsWith("sort-") || name.startsWith("audit-"))) {
                    continue; // not ours
                }
                if (!isDebris(name, Files.getLastModifiedTime(p).toInstant(), now)) {
                    continue;
                }
                long size = treeBytes(p);
                if (!dryRun) {
                    deleteTree(p);
                }
                removed.add(p.toString());
                bytes += size;
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("scratch collection in {}: {}", scratchDir, e.getMessage());
        }
        return new DebrisReport(removed, bytes);
    }

    /** The rule of the class comment; the owner check comes first so a live process's entry is never removed. */
    private boolean isDebris(String name, Instant modified, Instant now) {
        Optional<ScratchOwner> owner = ScratchOwner.parse(name);
        if (owner.isPresent() && owner.get().isAlive()) {
            return false;
        }
        Duration age = owner.isPresent() ? scratchDebrisAge : UNOWNED_SCRATCH_AGE;
        return modified.isBefore(now.minus(age));
    }

    /** Bytes of every regular file at or under {@code p}: a directory itself counts for nothing. */
    private static long treeBytes(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            return s.mapToLong(q -> {
                try {
                    BasicFileAttributes a = Files.readAttributes(q, BasicFileAttributes.class);
                    return a.isRegularFile() ? a.size() : 0;
                } catch (IOException e) {
                    return 0; // vanished while walking
                }
            }).sum();
        }
    }

    private static void deleteTree(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(q);
            }
        }
    }
}
