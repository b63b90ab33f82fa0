package dev.ourios.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How long each tenant's logs are kept (STORAGE.md §4.12): a default for every tenant and per-tenant overrides;
 * without either, a tenant's logs are kept forever. Pure policy, no clock of its own: the caller passes {@code now},
 * so the compactor's expiry, the ingest screen and the tests ask the same question of the same code.
 *
 * <p>Retention is applied a whole partition at a time: an hour is <em>expired</em> once its end is at least the
 * retention before {@code now}. An expired hour is removed by one commit; an hour that is only partly older than
 * the retention is kept whole until its end passes, so no partition is ever half expired.
 *
 * @param defaultRetention the retention of every tenant without an override; empty = kept forever
 * @param tenants          per-tenant retention, overriding the default
 */
public record Retention(Optional<Duration> defaultRetention, Map<String, Duration> tenants) {
    /** No retention: every log is kept forever (the default). */
    public static final Retention NONE = new Retention(Optional.empty(), Map.of());

    public Retention {
        Objects.requireNonNull(defaultRetention, "defaultRetention is null");
        tenants = java.util.Collections.unmodifiableMap(new TreeMap<>(tenants));
        defaultRetention.ifPresent(d -> requirePositive("the default retention", d));
        tenants.forEach((t, d) -> requirePositive("the retention of tenant '" + t + "'", d));
    }

    private static void requirePositive(String what, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive (got " + d + ")");
        }
    }

    /** The same retention for every tenant. */
    public static Retention of(Duration everyTenant) {
        return new Retention(Optional.of(everyTenant), Map.of());
    }

    /** This retention with {@code tenant} kept for {@code d}. */
    public Retention withTenant(String tenant, Duration d) {
        Map<String, Duration> m = new TreeMap<>(tenants);
        m.put(tenant, d);
        return new Retention(defaultRetention, m);
    }

    /** True when no tenant has a retention: nothing ever expires. */
    public boolean isNone() {
        return defaultRetention.isEmpty() && tenants.isEmpty();
    }

    /** How long {@code tenant}'s logs are kept; empty = forever. */
    public Optional<Duration> forTenant(String tenant) {
        Duration d = tenants.get(tenant);
        return d != null ? Optional.of(d) : defaultRetention;
    }

    /** The oldest instant {@code tenant} still keeps at {@code now}; empty when it keeps everything. */
    public Optional<Instant> cutoff(String tenant, Instant now) {
        return forTenant(tenant).map(now::minus);
    }

    /** True when the partition's whole hour is older than its tenant's retention at {@code now}. */
    public boolean isExpired(PartitionKey partition, Instant now) {
        Optional<Instant> cutoff = cutoff(partition.tenantId(), now);
        return cutoff.isPresent() && !partition.hourStart().plus(Duration.ofHours(1)).isAfter(cutoff.get());
    }

    /**
     * True when a record of {@code tenant} at {@code effectiveTimeUnixNano} would land in an expired partition at
     * {@code now}: what ingest refuses, so nothing lands that the next sweep would only expire.
     */
    public boolean isExpired(String tenant, long effectiveTimeUnixNano, Instant now) {
        return isExpired(PartitionKey.of(tenant, effectiveTimeUnixNano), now);
    }

    /** {@code 30d}, {@code 12h}, {@code 90m}: how the CLI, the configuration and the audit spell a retention. */
    public static String format(Duration d) {
        if (d.toSeconds() % 86_400 == 0 && d.getNano() == 0) {
            return d.toDays() + "d";
        }
        if (d.toSeconds() % 3600 == 0 && d.getNano() == 0) {
            return d.toHours() + "h";
        }
        if (d.toSeconds() % 60 == 0 && d.getNano() == 0) {
            return d.toMinutes() + "m";
        }
        return d.toMillis() + "ms";
    }
}
