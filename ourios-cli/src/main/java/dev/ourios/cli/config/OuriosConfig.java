package dev.ourios.cli.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The configuration of a long-running Ourios process, shared by {@code ourios serve} and {@code ourios config
 * check}: built once from a {@link ResolvedConfig} and fully validated, so a bad value stops the process at start
 * with one line naming the key, never in the middle of a sweep.
 */
public record OuriosConfig(StoreConfig store, HttpConfig http, IngestConfig ingest, CompactionConfig compaction,
        Duration drainTimeout, AuthConfig auth) {
    public OuriosConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(ingest, "ingest");
        Objects.requireNonNull(compaction, "compaction");
        Objects.requireNonNull(drainTimeout, "drainTimeout");
        Objects.requireNonNull(auth, "auth");
    }

    public static OuriosConfig from(ResolvedConfig resolved, ConfigKeys keys) {
        Values v = new Values(resolved);
        StoreConfig store = StoreConfig.from(v);
        return new OuriosConfig(store, HttpConfig.from(v), IngestConfig.from(v, store), CompactionConfig.from(v, keys),
                v.duration(ConfigKeys.DRAIN_TIMEOUT), AuthConfig.from(v));
    }
}
