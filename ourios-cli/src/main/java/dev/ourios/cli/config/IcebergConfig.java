package dev.ourios.cli.config;

import dev.ourios.iceberg.ViewForm;
import java.time.Duration;
import java.util.Objects;

/**
 * The Iceberg view of {@code ourios serve}.
 *
 * @param enabled           keep the view in step with every live-set change of the process (storage.md, section 10)
 * @param syncInterval      the least time between two syncs: changes arriving within it share one snapshot
 * @param reconcileInterval how often a sync is a full reconciliation (every partition read) instead of a sync of
 *                          the partitions the process changed; the first sync after start is always full
 * @param form              the type of the view's time columns (its form, fixed when the view is made)
 */
public record IcebergConfig(boolean enabled, Duration syncInterval, Duration reconcileInterval, ViewForm form) {
    public IcebergConfig {
        Objects.requireNonNull(form, "form is null");
        Objects.requireNonNull(syncInterval, "syncInterval is null");
        Objects.requireNonNull(reconcileInterval, "reconcileInterval is null");
    }

    /**
     * Reads and validates {@code iceberg.*}. The view needs the compaction daemon: its GC is what keeps the files the
     * view's snapshots reference, and expires the snapshots.
     */
    public static IcebergConfig from(ResolvedConfig resolved) {
        Values v = new Values(resolved);
        boolean enabled = v.bool(ConfigKeys.ICEBERG_ENABLED);
        if (enabled && !v.bool(ConfigKeys.COMPACTION_ENABLED)) {
            throw new ConfigException(v.label(ConfigKeys.ICEBERG_ENABLED)
                    + ": needs compaction.enabled (the sweeps' GC keeps what the view references)");
        }
        Duration reconcile = v.duration(ConfigKeys.ICEBERG_RECONCILE_INTERVAL);
        if (reconcile.isZero()) {
            throw new ConfigException(v.label(ConfigKeys.ICEBERG_RECONCILE_INTERVAL) + ": must be positive");
        }
        Duration sync = v.duration(ConfigKeys.ICEBERG_SYNC_INTERVAL);
        if (sync.isZero()) {
            throw new ConfigException(v.label(ConfigKeys.ICEBERG_SYNC_INTERVAL) + ": must be positive");
        }
        ViewForm form;
        try {
            form = ViewForm.of(v.string(ConfigKeys.ICEBERG_TIME_TYPE));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(v.label(ConfigKeys.ICEBERG_TIME_TYPE) + ": " + e.getMessage());
        }
        return new IcebergConfig(enabled, sync, reconcile, form);
    }
}
