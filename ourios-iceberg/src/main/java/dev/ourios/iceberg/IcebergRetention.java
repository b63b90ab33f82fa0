package dev.ourios.iceberg;

import dev.ourios.table.FileRetention;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.StreamSupport;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GC and the Iceberg view agree: before GC collects, snapshots that stopped being current more than the grace
 * ago are expired (as our own querier's planned generations are protected for the grace), then every data file a
 * remaining snapshot references is retained. A snapshot stops being current when its successor is committed, so
 * that successor's time, not the snapshot's own, is what the grace is measured from. Expiry deletes only the
 * view's own metadata files; a data file is only ever deleted by GC, after the manifests and the view both let it
 * go. A store without a view retains nothing.
 */
public final class IcebergRetention implements FileRetention {
    private static final Logger LOG = LoggerFactory.getLogger(IcebergRetention.class);
    private static final int EXPIRE_ATTEMPTS = 4;

    private final IcebergView view;
    private final Clock clock;

    public IcebergRetention(IcebergView view, Clock clock) {
        this.view = Objects.requireNonNull(view, "view is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
    }

    @Override
    public Predicate<String> retained(Duration grace, boolean dryRun) throws IOException {
        try {
            Optional<Table> table = view.table();
            if (table.isEmpty()) {
                return key -> false;
            }
            if (!dryRun) {
                table = Optional.of(expire(table.get(), grace));
            }
            Set<String> keys = IcebergView.referencedKeys(table.get(), view.location());
            LOG.debug("the Iceberg view retains {} data file(s)", keys.size());
            return keys::contains;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } catch (RuntimeException e) {
            throw new IOException("could not read the Iceberg view's snapshots: " + e.getMessage(), e);
        }
    }

    /** Expires what the grace allows, retrying when a sync commits meanwhile; returns the table as it is after. */
    Table expire(Table table, Duration grace) {
        Table t = table;
        for (int attempt = 1; attempt <= EXPIRE_ATTEMPTS; attempt++) {
            Optional<Long> before = expireBefore(t, clock.millis() - grace.toMillis());
            if (before.isEmpty()) {
                return t;
            }
            try {
                t.expireSnapshots()
                        .expireOlderThan(before.get())
                        .retainLast(1)
                        .deleteWith(this::deleteViewFile)
                        .commit();
                LOG.info("expired Iceberg snapshots older than {}", java.time.Instant.ofEpochMilli(before.get()));
                return view.table().orElseThrow();
            } catch (CommitFailedException e) {
                LOG.info("Iceberg snapshot expiry lost to another writer; trying again: {}", e.getMessage());
                t = view.table().orElseThrow();
            }
        }
        // Expiring later is always safe: retaining more snapshots only keeps more files.
        return t;
    }

    /**
     * The time before which snapshots may be expired: that of the newest snapshot created before {@code
     * cutoffMillis}. That snapshot may still have been current at the cutoff and is kept; every older one was
     * superseded before the cutoff. Empty when there is nothing to expire.
     */
    static Optional<Long> expireBefore(Table table, long cutoffMillis) {
        List<Snapshot> snapshots = StreamSupport.stream(table.snapshots().spliterator(), false)
                .sorted(Comparator.comparingLong(Snapshot::timestampMillis)).toList();
        Optional<Long> newestBeforeCutoff = Optional.empty();
        for (Snapshot s : snapshots) {
            if (s.timestampMillis() < cutoffMillis) {
                newestBeforeCutoff = Optional.of(s.timestampMillis());
            }
        }
        return newestBeforeCutoff.filter(ts -> snapshots.get(0).timestampMillis() < ts);
    }

    private void deleteViewFile(String path) {
        String key = view.location().key(path);
        if (!view.layout().owns(key)) {
            return; // a data file: GC's to decide, through the manifests and this retention
        }
        view.operations().io().deleteFile(path);
    }
}
