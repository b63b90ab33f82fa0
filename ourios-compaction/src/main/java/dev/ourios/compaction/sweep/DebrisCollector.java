package dev.ourios.compaction.sweep;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects what a killed compactor leaves outside the data partitions, which the partition GC never visits:
 * temp files of an interrupted audit write under {@code audit/} (only the current and previous UTC day, where a
 * crash can leave them, so the cost per sweep stays constant), and {@code sort-*} / {@code audit-*} entries in the
 * local scratch directory. Scratch entries are kept for {@link #SCRATCH_AGE} because another compactor process
 * sharing the directory may be in a long merge that has not touched its directory for a while.
 */
public final class DebrisCollector {
    private static final Logger LOG = LoggerFactory.getLogger(DebrisCollector.class);
    static final Duration SCRATCH_AGE = Duration.ofHours(6);

    private final ObjectStore store;
    private final TableLayout layout;
    private final Path scratchDir;
    private final Duration grace;
    private final Clock clock;
    private final boolean dryRun;

    public DebrisCollector(ObjectStore store, TableLayout layout, Path scratchDir, Duration grace, Clock clock,
            boolean dryRun) {
        this.store = store;
        this.layout = layout;
        this.scratchDir = scratchDir;
        this.grace = grace;
        this.clock = clock;
        this.dryRun = dryRun;
    }

    /**
     * Returns the number of objects and scratch entries removed (or that would be, in a dry run). Only the tenants
     * in the filter's scope are visited, so a tenant-scoped sweep never lists another tenant's prefix.
     */
    public int collect(PartitionFilter scope) {
        return collectAuditTemps(scope) + collectScratch();
    }

    int collectAuditTemps(PartitionFilter scope) {
        Instant now = clock.instant();
        Instant cutoff = now.minus(grace);
        int n = 0;
        try {
            for (String tenant : scope.tenants().isPresent() ? new java.util.TreeSet<>(scope.tenants().get())
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
                            n++;
                        }
                    }
                }
            }
        } catch (IOException e) {
            LOG.warn("audit temp-file collection: {}", e.getMessage());
        }
        return n;
    }

    int collectScratch() {
        if (!Files.isDirectory(scratchDir)) {
            return 0;
        }
        Instant cutoff = clock.instant().minus(SCRATCH_AGE);
        int n = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(scratchDir)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (!(name.startsWith("sort-") || name.startsWith("audit-"))) {
                    continue; // not ours
                }
                if (Files.getLastModifiedTime(p).toInstant().isBefore(cutoff)) {
                    if (!dryRun) {
                        deleteTree(p);
                    }
                    n++;
                }
            }
        } catch (IOException e) {
            LOG.warn("scratch collection in {}: {}", scratchDir, e.getMessage());
        }
        return n;
    }

    private static void deleteTree(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(q);
            }
        }
    }
}
