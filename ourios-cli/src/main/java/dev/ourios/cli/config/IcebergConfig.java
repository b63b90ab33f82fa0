package dev.ourios.cli.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The Iceberg view of {@code ourios serve}.
 *
 * @param enabled           sync the view after every compaction sweep (storage.md, section 10)
 * @param reconcileInterval how often that sync is a full reconciliation (every partition read) instead of a sync of
 *                          the partitions the sweep committed; the first sync after start is always full
 */
public record IcebergConfig(boolean enabled, Duration reconcileInterval) {
    public IcebergConfig {
        Objects.requireNonNull(reconcileInterval, "reconcileInterval is null");
    }

    /** Reads and validates {@code iceberg.*}: the view is synced after sweeps, so it needs the compaction daemon. */
    public static IcebergConfig from(ResolvedConfig resolved) {
        Values v = new Values(resolved);
        boolean enabled = v.bool(ConfigKeys.ICEBERG_ENABLED);
        if (enabled && !v.bool(ConfigKeys.COMPACTION_ENABLED)) {
            throw new ConfigException(v.label(ConfigKeys.ICEBERG_ENABLED)
                    + ": needs compaction.enabled (the view is synced after every sweep)");
        }
        Duration reconcile = v.duration(ConfigKeys.ICEBERG_RECONCILE_INTERVAL);
        if (reconcile.isZero()) {
            throw new ConfigException(v.label(ConfigKeys.ICEBERG_RECONCILE_INTERVAL) + ": must be positive");
        }
        return new IcebergConfig(enabled, reconcile);
    }
}
