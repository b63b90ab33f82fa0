package dev.ourios.server.iceberg;

import dev.ourios.iceberg.ViewForm;
import java.time.Duration;
import java.util.Objects;

/**
 * The Iceberg view the service keeps.
 *
 * @param enabled           keep the view in step with every live-set change of the process (storage.md, section 10)
 * @param syncInterval      the least time between two syncs: changes arriving within it share one snapshot
 * @param reconcileInterval how often a sync is a full reconciliation (every partition read) instead of a sync of
 *                          the partitions the process changed; the first sync after start is always full
 * @param form              the type of the view's time columns (its form, fixed when the view is made)
 */
public record IcebergSettings(boolean enabled, Duration syncInterval, Duration reconcileInterval, ViewForm form) {
    public IcebergSettings {
        Objects.requireNonNull(syncInterval, "syncInterval");
        Objects.requireNonNull(reconcileInterval, "reconcileInterval");
        Objects.requireNonNull(form, "form");
    }
}
