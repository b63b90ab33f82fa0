package dev.ourios.compaction.audit;

import dev.ourios.core.PartitionKey;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * One day of one tenant's audit series: {@code audit/tenant_id=<enc>/year=YYYY/month=MM/day=DD/}, a directory that
 * keeps event files, a compacted file and manifests exactly as a data partition does (STORAGE.md §7.1).
 */
public record AuditDay(String tenantId, LocalDate date) {
    public AuditDay {
        Objects.requireNonNull(tenantId, "tenantId is null");
        Objects.requireNonNull(date, "date is null");
    }

    /** The day's directory, ending in '/'. */
    public String prefix() {
        return PartitionKey.AUDIT_ROOT + PartitionKey.tenantSegment(tenantId) + String.format(
                "/year=%04d/month=%02d/day=%02d/", date.getYear(), date.getMonthValue(), date.getDayOfMonth());
    }

    /** {@code year=YYYY/month=MM/day=DD}: how audit events and results name the day. */
    public String dayPath() {
        return String.format("year=%04d/month=%02d/day=%02d", date.getYear(), date.getMonthValue(),
                date.getDayOfMonth());
    }

    /** The first instant after the day. */
    public Instant end() {
        return date.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    /**
     * The day's first hour as a partition key: only a label for the table code's results and messages, which name
     * partitions; every key of the day is built from {@link #prefix()}.
     */
    PartitionKey label() {
        return PartitionKey.ofHour(tenantId, date.atStartOfDay().toInstant(ZoneOffset.UTC));
    }

    @Override
    public String toString() {
        return "audit of tenant '" + tenantId + "' " + dayPath();
    }
}
