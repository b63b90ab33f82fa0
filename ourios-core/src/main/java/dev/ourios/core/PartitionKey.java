package dev.ourios.core;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A (tenant, UTC hour) partition and its Hive path {@code tenant_id=<enc>/year=YYYY/month=MM/day=DD/hour=HH}.
 */
public record PartitionKey(String tenantId, int year, int month, int day, int hour) implements Comparable<PartitionKey> {
    private static final Pattern YEAR = Pattern.compile("year=(\\d{4})");
    private static final Pattern MONTH = Pattern.compile("month=(\\d{2})");
    private static final Pattern DAY = Pattern.compile("day=(\\d{2})");
    private static final Pattern HOUR = Pattern.compile("hour=(\\d{2})");
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** Top-level prefix of the log data; audit events live under {@code audit/}. */
    public static final String DATA_ROOT = "data/";
    public static final String AUDIT_ROOT = "audit/";

    public PartitionKey {
        Objects.requireNonNull(tenantId, "tenantId");
        if (tenantId.isEmpty()) {
            throw new IllegalArgumentException("tenant id must not be empty");
        }
        // Validates the calendar fields (throws DateTimeException on e.g. month 13).
        LocalDateTime.of(year, month, day, hour, 0);
    }

    /** The partition of a row with this tenant and effective time (nanoseconds since the epoch, UTC). */
    public static PartitionKey of(String tenantId, long effectiveTimeUnixNano) {
        long seconds = Math.floorDiv(effectiveTimeUnixNano, NANOS_PER_SECOND);
        LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        return new PartitionKey(tenantId, t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour());
    }

    public static PartitionKey ofHour(String tenantId, Instant hourStart) {
        return of(tenantId, hourStart.getEpochSecond() * NANOS_PER_SECOND);
    }

    /** The tenant and effective-time range of this partition's rows, for a per-row check without calendar work. */
    public Rows rows() {
        return new Rows(tenantId, hourStartNanos(), hourEndNanos());
    }

    /**
     * The rows a partition holds: tenant {@code tenantId}, effective time in {@code [fromNanos, toNanos)}. Checking a
     * row against it costs two comparisons; {@link #of} builds a key through the calendar, which a scan doing it for
     * every row paid for (~5 % of a query's samples).
     */
    public record Rows(String tenantId, long fromNanos, long toNanos) {
        public boolean holds(String rowTenantId, long effectiveTimeUnixNano) {
            return effectiveTimeUnixNano >= fromNanos && effectiveTimeUnixNano < toNanos
                    && tenantId.equals(rowTenantId);
        }
    }

    /** First instant of the hour. */
    public Instant hourStart() {
        return LocalDateTime.of(year, month, day, hour, 0).toInstant(ZoneOffset.UTC);
    }

    /** First nanosecond of the hour since the epoch. */
    public long hourStartNanos() {
        return hourStart().getEpochSecond() * NANOS_PER_SECOND;
    }

    /** First nanosecond after the hour. */
    public long hourEndNanos() {
        return hourStartNanos() + 3600 * NANOS_PER_SECOND;
    }

    /** {@code year=YYYY/month=MM/day=DD/hour=HH}: the partition label used in audit events and CLI output. */
    public String hourPath() {
        // Built by hand, not by String.format: every query resolves its partitions' paths, and a format costs more
        // than the rest of the resolution's string work together.
        StringBuilder b = new StringBuilder(36).append("year=");
        padded(b, year, 4).append("/month=");
        padded(b, month, 2).append("/day=");
        padded(b, day, 2).append("/hour=");
        return padded(b, hour, 2).toString();
    }

    /** {@code YYYY-MM-DDTHH}, the form {@code --partition} takes. */
    public String hourLabel() {
        StringBuilder b = new StringBuilder(13);
        padded(b, year, 4).append('-');
        padded(b, month, 2).append('-');
        padded(b, day, 2).append('T');
        return padded(b, hour, 2).toString();
    }

    /**
     * FNV-1a 64 over UTF-8 {@code tenant '\n' YYYY-MM-DDTHH} (STORAGE.md §4.11): the hash that assigns the partition
     * to a compactor shard, explicit rather than {@code hashCode()} so every process and implementation agrees. The
     * label's fixed length keeps it unambiguous.
     */
    public long shardHash() {
        long h = 0xcbf29ce484222325L;
        for (byte b : (tenantId + "\n" + hourLabel()).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** Appends {@code v} as {@code %0<width>d} does. */
    private static StringBuilder padded(StringBuilder b, int v, int width) {
        if (v < 0) {
            return b.append(String.format("%0" + width + "d", v)); // a year before 0: the sign counts in the width
        }
        String digits = Integer.toString(v);
        for (int i = digits.length(); i < width; i++) {
            b.append('0');
        }
        return b.append(digits);
    }

    /** {@code tenant_id=<enc>}: the tenant's directory name. */
    public String tenantSegment() {
        return tenantSegment(tenantId);
    }

    public static String tenantSegment(String tenantId) {
        return "tenant_id=" + TenantCodec.encode(tenantId);
    }

    /** {@code tenant_id=<enc>/year=…/hour=HH}, relative to the data root. */
    public String path() {
        return tenantSegment() + "/" + hourPath();
    }

    /** {@code data/tenant_id=<enc>/year=…/hour=HH/}: the partition's directory prefix in the store. */
    public String dataPrefix() {
        return DATA_ROOT + path() + "/";
    }

    /** {@code data/tenant_id=<enc>/}: a tenant's directory prefix in the store. */
    public static String tenantDataPrefix(String tenantId) {
        return DATA_ROOT + tenantSegment(tenantId) + "/";
    }

    /** Parses the four calendar segments of a canonical hour path; empty for anything non-canonical. */
    public static Optional<PartitionKey> parseHourPath(String tenantId, String year, String month, String day,
            String hour) {
        var y = YEAR.matcher(year);
        var m = MONTH.matcher(month);
        var d = DAY.matcher(day);
        var h = HOUR.matcher(hour);
        if (!y.matches() || !m.matches() || !d.matches() || !h.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PartitionKey(tenantId, Integer.parseInt(y.group(1)), Integer.parseInt(m.group(1)),
                    Integer.parseInt(d.group(1)), Integer.parseInt(h.group(1))));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Parses {@code YYYY-MM-DDTHH}. */
    public static PartitionKey parseLabel(String tenantId, String label) {
        var m = Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2})").matcher(label);
        if (!m.matches()) {
            throw new IllegalArgumentException("partition must look like YYYY-MM-DDTHH, got '" + label + "'");
        }
        return new PartitionKey(tenantId, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)));
    }

    /** Tenant first (by id), then time. */
    @Override
    public int compareTo(PartitionKey o) {
        int c = tenantId.compareTo(o.tenantId);
        if (c != 0) {
            return c;
        }
        // The calendar fields in order are the hour's time order (every key is a valid UTC hour): no Instant is
        // made, as a query sorts the hours of its window with this.
        c = Integer.compare(year, o.year);
        if (c == 0) {
            c = Integer.compare(month, o.month);
        }
        if (c == 0) {
            c = Integer.compare(day, o.day);
        }
        return c != 0 ? c : Integer.compare(hour, o.hour);
    }

    /**
     * Written out rather than generated: a query looks hours up by key several times per hour of its window, and a
     * record's generated equality runs through a method-handle bootstrap that is slow until compiled. The hash is
     * the one the generated method gives, so no map's order changes.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionKey k && hour == k.hour && day == k.day && month == k.month && year == k.year
                && tenantId.equals(k.tenantId);
    }

    @Override
    public int hashCode() {
        return ((((tenantId.hashCode() * 31) + year) * 31 + month) * 31 + day) * 31 + hour;
    }

    @Override
    public String toString() {
        return "tenant '" + tenantId + "' " + hourPath();
    }
}
