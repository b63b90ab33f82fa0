package dev.ourios.table;

import dev.ourios.core.PartitionKey;
import java.time.LocalDate;
import java.util.Objects;

/**
 * The day partition of one tenant and UTC day (STORAGE.md §4.15):
 * {@code data/tenant_id=<enc>/year=YYYY/month=MM/day=DD/rollup/}. It keeps files and manifests as an hour partition
 * does; its manifest's {@code covers} name the hours whose rows its files hold.
 */
public record DayPartition(String tenantId, LocalDate date) {
    /** The directory name of a day partition beside the day's {@code hour=HH/} directories. */
    public static final String DIRECTORY = "rollup";

    public DayPartition {
        Objects.requireNonNull(tenantId, "tenantId is null");
        Objects.requireNonNull(date, "date is null");
    }

    /** The day partition of the day {@code hour} belongs to. */
    public static DayPartition of(PartitionKey hour) {
        return new DayPartition(hour.tenantId(), LocalDate.of(hour.year(), hour.month(), hour.day()));
    }

    /** The hour {@code hour} (0 to 23) of this day. */
    public PartitionKey hour(int hour) {
        return new PartitionKey(tenantId, date.getYear(), date.getMonthValue(), date.getDayOfMonth(), hour);
    }

    /**
     * The key that names this day in results and messages where a partition key is asked for: the day's first hour.
     * Never used as a directory.
     */
    public PartitionKey label() {
        return hour(0);
    }

    /** {@code data/tenant_id=<enc>/year=YYYY/month=MM/day=DD/}: the day's directory. */
    public String dayPrefix() {
        String hourPrefix = label().dataPrefix();
        String withoutSlash = hourPrefix.substring(0, hourPrefix.length() - 1);
        return withoutSlash.substring(0, withoutSlash.lastIndexOf('/') + 1);
    }

    /** {@code data/tenant_id=<enc>/year=YYYY/month=MM/day=DD/rollup/}: the day partition's directory. */
    public String prefix() {
        return dayPrefix() + DIRECTORY + "/";
    }

    /** True if {@code key} is an object directly inside some day partition's directory. */
    public static boolean isInDayPartition(String key) {
        int slash = key.lastIndexOf('/');
        String dir = slash < 0 ? "" : key.substring(0, slash);
        return dir.endsWith("/" + DIRECTORY) && dir.startsWith(PartitionKey.DATA_ROOT);
    }

    /**
     * Written out rather than generated: a query looks its days up by this once or twice per hour of its window, and
     * a record's generated equality runs through a method-handle bootstrap that is slow until compiled, which a
     * query of a fresh process never gets to. The hash is the one the generated method gives.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof DayPartition d && date.equals(d.date) && tenantId.equals(d.tenantId);
    }

    @Override
    public int hashCode() {
        return 31 * tenantId.hashCode() + date.hashCode();
    }

    @Override
    public String toString() {
        return tenantId + " " + date + " rollup";
    }
}
