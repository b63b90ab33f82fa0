package dev.ourios.cli.config;

/**
 * The Iceberg view of {@code ourios serve}.
 *
 * @param enabled sync the view after every compaction sweep (storage.md, section 10)
 */
public record IcebergConfig(boolean enabled) {
    /** Reads and validates {@code iceberg.*}: the view is synced after sweeps, so it needs the compaction daemon. */
    public static IcebergConfig from(ResolvedConfig resolved) {
        Values v = new Values(resolved);
        boolean enabled = v.bool(ConfigKeys.ICEBERG_ENABLED);
        if (enabled && !v.bool(ConfigKeys.COMPACTION_ENABLED)) {
            throw new ConfigException(v.label(ConfigKeys.ICEBERG_ENABLED)
                    + ": needs compaction.enabled (the view is synced after every sweep)");
        }
        return new IcebergConfig(enabled);
    }
}
