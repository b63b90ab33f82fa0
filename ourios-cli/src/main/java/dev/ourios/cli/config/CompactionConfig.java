package dev.ourios.cli.config;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.store.IoRates;
import dev.ourios.cli.Units;
import dev.ourios.cli.UsageException;
import dev.ourios.core.Retention;
import dev.ourios.core.TenantCodec;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The compaction daemon of {@code ourios serve}.
 *
 * @param enabled  false: the process only serves queries
 * @param interval time between the end of one sweep and the start of the next
 * @param options  the sweep's knobs, as {@code ourios compact} takes them
 */
public record CompactionConfig(boolean enabled, Duration interval, CompactionOptions options) {
    public CompactionConfig {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(options, "options");
    }

    static CompactionConfig from(Values v, ConfigKeys keys, Map<String, String> retentionTenants) {
        boolean enabled = v.bool(ConfigKeys.COMPACTION_ENABLED);
        Duration interval = v.duration(ConfigKeys.COMPACTION_INTERVAL);
        if (interval.isZero()) {
            throw new ConfigException(ConfigKeys.COMPACTION_INTERVAL + ": must be positive");
        }
        OptionalLong rg = v.optional(ConfigKeys.ROW_GROUP_BYTES).isPresent()
                ? OptionalLong.of(v.size(ConfigKeys.ROW_GROUP_BYTES)) : OptionalLong.empty();
        CompactionOptions o;
        try {
            o = new CompactionOptions(v.duration(ConfigKeys.GRACE), v.integer(ConfigKeys.MIN_FILES),
                    v.size(ConfigKeys.SMALL_FILE_BYTES), v.size(ConfigKeys.SORT_BUDGET),
                    v.integer(ConfigKeys.FAN_IN), rg, v.integer(ConfigKeys.CONCURRENCY),
                    v.duration(ConfigKeys.GC_GRACE), v.path(ConfigKeys.SCRATCH),
                    new IoRates(v.size(ConfigKeys.MAX_READ_RATE), v.size(ConfigKeys.MAX_WRITE_RATE)))
                    .withScratchDebrisAge(v.duration(ConfigKeys.SCRATCH_DEBRIS_AGE))
                    .withMaxTailRatio(v.fraction(ConfigKeys.MAX_TAIL_RATIO))
                    .withMaxFileBytes(v.size(ConfigKeys.MAX_FILE_BYTES))
                    .withRetention(retention(v, retentionTenants))
                    .withRollup(v.bool(ConfigKeys.ROLLUP))
                    .withShareWorkers(v.integer(ConfigKeys.SHARE_WORKERS));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(renamed(e.getMessage(), keys, v), e);
        }
        return new CompactionConfig(enabled, interval, o);
    }

    /** {@code retention.default} and the {@code retention.tenants} mapping; every error names the key at fault. */
    static Retention retention(Values v, Map<String, String> tenants) {
        Optional<Duration> def = v.optional(ConfigKeys.RETENTION_DEFAULT)
                .map(x -> positive(v.label(ConfigKeys.RETENTION_DEFAULT), v.duration(ConfigKeys.RETENTION_DEFAULT)));
        Map<String, Duration> byTenant = new TreeMap<>();
        for (Map.Entry<String, String> e : tenants.entrySet()) {
            String key = ConfigKeys.RETENTION_TENANTS + "." + e.getKey();
            try {
                TenantCodec.encode(e.getKey());
                byTenant.put(e.getKey(), positive(key, Units.parseDuration(key, e.getValue())));
            } catch (UsageException | IllegalArgumentException ex) {
                throw new ConfigException(ex.getMessage().startsWith(key) ? ex.getMessage()
                        : key + ": " + ex.getMessage(), ex);
            }
        }
        return new Retention(def, byTenant);
    }

    private static Duration positive(String label, Duration d) {
        if (d.isZero()) {
            throw new ConfigException(label + ": must be positive (omit it to keep logs forever)");
        }
        return d;
    }

    /** CompactionOptions names the flag ("--fan-in must be ..."); a config error names the key instead. */
    private static String renamed(String message, ConfigKeys keys, Values v) {
        for (ConfigKey k : keys.all()) {
            if (k.flag().isPresent() && message.startsWith(k.flag().get() + " ")) {
                return v.label(k.name()) + ":" + message.substring(k.flag().get().length());
            }
        }
        return "compaction: " + message;
    }
}
