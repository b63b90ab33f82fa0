package dev.ourios.cli;

import dev.ourios.cli.config.ConfigKeys;
import dev.ourios.cli.config.FlagDefaults;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.store.IoRates;
import dev.ourios.core.Retention;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import picocli.CommandLine.Option;

/**
 * The compaction knobs of CLI.md, shared by {@code compact} and {@code serve}. Their defaults are the registry's
 * ({@link ConfigKeys}): a command that mixes these flags in names {@link FlagDefaults.Compaction} as its default
 * provider.
 */
public final class CompactionFlags {
    @Option(names = "--grace", description = "Sealing margin after the hour ends (default ${DEFAULT-VALUE})")
    String grace;

    @Option(names = "--min-files", description = "Candidate if more live files than this (default ${DEFAULT-VALUE})")
    int minFiles;

    @Option(names = "--small-file-bytes", description = "Candidate if any live file is smaller (default ${DEFAULT-VALUE})")
    String smallFileBytes;

    @Option(names = "--max-tail-ratio", description = "Late files beside a partition's "
            + "compacted file are merged among themselves while their bytes are at most this fraction of it; beyond "
            + "it the whole partition is merged again; 0 merges every late file into the hour at once (default "
            + "${DEFAULT-VALUE})")
    double maxTailRatio;

    @Option(names = "--max-file-bytes", description = "Largest compacted file: a partition beyond it is written as "
            + "several files with disjoint, ordered (service, time) ranges, committed together (default "
            + "${DEFAULT-VALUE})")
    String maxFileBytes;

    /**
     * Null when neither form is given: then the setting's default applies. picocli sets a negatable flag to the
     * opposite of its default, so the flag has none of its own (FlagDefaults leaves it out): {@code --rollup} is
     * always on and {@code --no-rollup} always off.
     */
    @Option(names = "--rollup", negatable = true, description = "Roll a tenant's small sealed hours up into one "
            + "file per UTC day, in the day partition (storage.md 4.15); --no-rollup leaves them hourly (default on)")
    Boolean rollup;

    @Option(names = "--sort-budget", description = "Decoded-row budget of the sort before spilling (default ${DEFAULT-VALUE})")
    String sortBudget;

    @Option(names = "--fan-in", description = "Runs merged at once (default ${DEFAULT-VALUE})")
    int fanIn;

    @Option(names = "--row-group-bytes", description = "Compacted row-group threshold (default: "
            + "$OURIOS_COMPACTED_RG_BYTES or clamp(input/8, 1MiB, 32MiB))")
    String rowGroupBytes;

    @Option(names = "--concurrency", description = "Partitions compacted at once (default ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--share-workers", description = "Workers one rewrite of at least four times --max-file-bytes is "
            + "split between, each reading every input; the files are the same for any number (default "
            + "${DEFAULT-VALUE})")
    int shareWorkers;

    @Option(names = "--gc-grace", description = "How long retired files, orphans and old manifests are kept (default ${DEFAULT-VALUE})")
    String gcGrace;

    @Option(names = "--max-read-rate", description = "Bytes per second all compactions together may read from the store, e.g. 64MiB; 0 = unthrottled (default ${DEFAULT-VALUE})")
    String maxReadRate;

    @Option(names = "--max-write-rate", description = "Bytes per second all compactions together may write to the store, e.g. 32MiB; 0 = unthrottled (default ${DEFAULT-VALUE})")
    String maxWriteRate;

    @Option(names = "--retention", paramLabel = "DURATION", description = "Expire every partition whose whole hour "
            + "is older than this, for every tenant (e.g. 30d); unset = keep forever")
    String retention;

    @Option(names = "--retention-tenant", paramLabel = "TENANT=DURATION", description = "A tenant's own retention, "
            + "overriding --retention (repeatable)")
    List<String> retentionTenants;

    @Option(names = "--scratch", paramLabel = "DIR", description = "Scratch directory for spill runs (default: the "
            + "system temp directory)")
    Path scratch;

    /** The retention these flags give: {@code --retention} for every tenant, {@code --retention-tenant} overrides. */
    public Retention retention() {
        Optional<Duration> def = Optional.ofNullable(retention).map(r -> positive("--retention",
                Units.parseDuration("--retention", r)));
        Retention out = new Retention(def, Map.of());
        return withTenantFlags(out);
    }

    /** {@code base} with the {@code --retention-tenant} entries over it. */
    public Retention withTenantFlags(Retention base) {
        Retention out = base;
        for (String t : retentionTenants == null ? List.<String>of() : retentionTenants) {
            int eq = t.lastIndexOf('=');
            if (eq <= 0) {
                throw new UsageException("--retention-tenant: '" + t + "' is not TENANT=DURATION (e.g. acme=7d)");
            }
            String tenant = TenantArg.require("--retention-tenant", t.substring(0, eq));
            out = out.withTenant(tenant, positive("--retention-tenant " + tenant,
                    Units.parseDuration("--retention-tenant " + tenant, t.substring(eq + 1))));
        }
        return out;
    }

    private static Duration positive(String option, Duration d) {
        if (d.isZero()) {
            throw new UsageException(option + ": must be positive (omit it to keep logs forever)");
        }
        return d;
    }

    @Option(names = "--scratch-debris-age", paramLabel = "DURATION",
            description = "Delete scratch left by a compaction process that is gone once this old; a running "
                    + "process's scratch is never deleted (default ${DEFAULT-VALUE})")
    String scratchDebrisAge;

    /**
     * {@code --row-group-bytes}, else {@code OURIOS_COMPACTED_RG_BYTES}, else empty (adaptive). The variable is
     * validated as strictly as the flag, so a typo fails before the sweep instead of silently meaning "adaptive".
     */
    OptionalLong rowGroupBytes(String env) {
        if (rowGroupBytes != null) {
            return OptionalLong.of(Units.parseSize("--row-group-bytes", rowGroupBytes));
        }
        return envRowGroupBytes(env);
    }

    /**
     * {@code OURIOS_COMPACTED_RG_BYTES} as the row-group setting of a command without the flag ({@code delete},
     * {@code demo}): empty when unset; a value that is not a byte count of at least 1 KiB is bad usage, naming the
     * variable.
     */
    static OptionalLong envRowGroupBytes() {
        return envRowGroupBytes(rowGroupEnv());
    }

    /**
     * The raw value of the row-group variable, which the registry names ({@link ConfigKeys#ROW_GROUP_BYTES}): the
     * command line's one read of it, for {@code compact}, {@code delete} and {@code demo} alike ({@code serve} reads
     * it with the rest of its configuration).
     */
    private static String rowGroupEnv() {
        return System.getenv(ConfigKeys.standard().get(ConfigKeys.ROW_GROUP_BYTES).env());
    }

    /** {@code env}, the variable's raw value, as a row-group setting; see {@link #envRowGroupBytes()}. */
    private static OptionalLong envRowGroupBytes(String env) {
        try {
            return RowGroupSizing.parseEnv(env);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }

    public CompactionOptions toOptions() {
        try {
            return new CompactionOptions(Units.parseDuration("--grace", grace), minFiles,
                    Units.parseSize("--small-file-bytes", smallFileBytes), Units.parseSize("--sort-budget", sortBudget),
                    fanIn, rowGroupBytes(rowGroupEnv()),
                    concurrency, Units.parseDuration("--gc-grace", gcGrace), scratch,
                    new IoRates(Units.parseSize("--max-read-rate", maxReadRate),
                            Units.parseSize("--max-write-rate", maxWriteRate)), retention(),
                    Units.parseDuration("--scratch-debris-age", scratchDebrisAge), maxTailRatio,
                    Units.parseSize("--max-file-bytes", maxFileBytes)).withRollup(rollup != null ? rollup
                    : Boolean.parseBoolean(ConfigKeys.standard().get(ConfigKeys.ROLLUP).defaultValue().orElseThrow()))
                    .withShareWorkers(shareWorkers);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
