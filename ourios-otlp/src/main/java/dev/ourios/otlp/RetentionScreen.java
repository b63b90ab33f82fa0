package dev.ourios.otlp;

import dev.ourios.core.PartitionKey;
import dev.ourios.core.Retention;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Refuses a record whose partition (tenant, effective hour) is already past the tenant's retention: it would be
 * stored only to be expired by the next sweep, or, landing in an hour an expiry already emptied, would reappear in
 * it until then. The same rule as the compactor's ({@link Retention#isExpired(PartitionKey, Instant)}), with
 * {@code now} taken once per request.
 */
public final class RetentionScreen implements RecordScreen {
    private final String tenant;
    private final Retention retention;
    private final Instant now;

    public RetentionScreen(String tenant, Retention retention, Instant now) {
        this.tenant = tenant;
        this.retention = retention;
        this.now = now;
    }

    /** {@link RecordScreen#NONE} when the tenant keeps everything. */
    public static RecordScreen of(String tenant, Retention retention, Instant now) {
        return retention.forTenant(tenant).isEmpty() ? RecordScreen.NONE : new RetentionScreen(tenant, retention, now);
    }

    @Override
    public Rejection check(io.opentelemetry.proto.logs.v1.LogRecord r) {
        long effective = r.getTimeUnixNano() != 0 ? r.getTimeUnixNano() : r.getObservedTimeUnixNano();
        if (effective < 0 || !retention.isExpired(tenant, effective, now)) {
            return null;
        }
        Optional<Duration> d = retention.forTenant(tenant);
        return new Rejection(Rejection.RETENTION_EXPIRED, "record at "
                + Instant.ofEpochSecond(0, effective) + " is older than the retention of tenant '" + tenant + "' ("
                + Retention.format(d.orElseThrow()) + "): its hour "
                + PartitionKey.of(tenant, effective).hourLabel() + " is expired");
    }
}
