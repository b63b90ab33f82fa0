package dev.ourios.table;

import dev.ourios.core.PartitionKey;
import dev.ourios.core.TenantCodec;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Walks {@code data/tenant_id=<enc>/year=/month=/day=/hour=} one directory level at a time (STORAGE.md §1). Never a
 * recursive listing of everything: a tenant or year outside the filter is not listed below. Non-canonical names
 * are skipped with a warning, so a stray {@code month=4} or a hand-made tenant directory cannot shadow or merge
 * into a real partition.
 */
public final class TableLayout {
    private static final Logger LOG = LoggerFactory.getLogger(TableLayout.class);
    private static final String TENANT = "tenant_id=";
    private static final Pattern YEAR = Pattern.compile("year=(\\d{4})");
    private static final Pattern MONTH = Pattern.compile("month=(\\d{2})");
    private static final Pattern DAY = Pattern.compile("day=(\\d{2})");

    private final ObjectStore store;

    public TableLayout(ObjectStore store) {
        this.store = Objects.requireNonNull(store, "store is null");
    }

    /** Every tenant with a canonical directory under {@code data/}, sorted by id. */
    public List<String> tenants() throws IOException {
        List<String> out = new ArrayList<>();
        for (String dir : store.listDirectories(PartitionKey.DATA_ROOT)) {
            Optional<String> id = dir.startsWith(TENANT) ? TenantCodec.decode(dir.substring(TENANT.length()))
                    : Optional.empty();
            if (id.isEmpty()) {
                LOG.warn("skipping {}: not a canonical tenant_id=<enc> directory",
                        store.describe(PartitionKey.DATA_ROOT + dir + "/"));
                continue;
            }
            out.add(id.get());
        }
        out.sort(null); // PartitionKey order: by tenant id, which differs from the order of the encodings
        return out;
    }

    /** The partitions the filter selects, sorted (tenant id, then hour). */
    public List<PartitionKey> partitions(PartitionFilter filter) throws IOException {
        List<PartitionKey> out = new ArrayList<>();
        forEachPartition(filter, out::add);
        return out;
    }

    /** Streams the selected partitions in sorted order without holding them all. */
    public void forEachPartition(PartitionFilter filter, PartitionVisitor visitor) throws IOException {
        forEachPartition(filter, visitor, day -> { });
    }

    /**
     * As above, also giving {@code days} every day partition (STORAGE.md §4.15) of a selected day, before that day's
     * hours: the {@code rollup/} directory the day's one listing shows beside its hours.
     */
    public void forEachPartition(PartitionFilter filter, PartitionVisitor visitor, DayVisitor days)
            throws IOException {
        List<String> tenants;
        if (filter.tenants().isPresent()) {
            // Listing only the named tenants' directories avoids enumerating every tenant in the store.
            tenants = new ArrayList<>(filter.tenants().get());
            tenants.sort(null);
        } else {
            tenants = tenants();
        }
        for (String tenant : tenants) {
            walkTenant(tenant, filter, visitor, days);
        }
    }

    private void walkTenant(String tenant, PartitionFilter filter, PartitionVisitor visitor, DayVisitor days)
            throws IOException {
        String tenantPrefix = PartitionKey.tenantDataPrefix(tenant);
        for (String y : store.listDirectories(tenantPrefix)) {
            Integer year = field(YEAR, y, 1, 9999, tenantPrefix);
            if (year == null || !filter.overlaps(start(year, 1, 1), start(year + 1, 1, 1))) {
                continue;
            }
            String yearPrefix = tenantPrefix + y + "/";
            for (String m : store.listDirectories(yearPrefix)) {
                Integer month = field(MONTH, m, 1, 12, yearPrefix);
                if (month == null) {
                    continue;
                }
                LocalDate firstOfMonth = LocalDate.of(year, month, 1);
                if (!filter.overlaps(start(firstOfMonth), start(firstOfMonth.plusMonths(1)))) {
                    continue;
                }
                String monthPrefix = yearPrefix + m + "/";
                for (String d : store.listDirectories(monthPrefix)) {
                    Integer day = field(DAY, d, 1, firstOfMonth.lengthOfMonth(), monthPrefix);
                    if (day == null) {
                        continue;
                    }
                    LocalDate date = LocalDate.of(year, month, day);
                    if (!filter.overlaps(start(date), start(date.plusDays(1)))) {
                        continue;
                    }
                    String dayPrefix = monthPrefix + d + "/";
                    List<String> entries = store.listDirectories(dayPrefix);
                    if (entries.contains(DayPartition.DIRECTORY)) {
                        days.visit(new DayPartition(tenant, date));
                    }
                    for (String h : entries) {
                        if (h.equals(DayPartition.DIRECTORY)) {
                            continue; // the day partition beside the hours, given to the day visitor above
                        }
                        Optional<PartitionKey> p = hourOf(tenant, year, month, day, h);
                        if (p.isEmpty()) {
                            LOG.warn("skipping {}: not a canonical hour directory", store.describe(dayPrefix + h + "/"));
                            continue;
                        }
                        Instant hs = p.get().hourStart();
                        if (filter.overlaps(hs, hs.plusSeconds(3600))) {
                            visitor.visit(p.get());
                        }
                    }
                }
            }
        }
    }

    /**
     * The hour partition of a canonical {@code hour=HH} directory of the day (year, month and day already parsed),
     * else empty. Read in place rather than through {@link PartitionKey#parseHourPath}, which parses every segment
     * again: a walk over a month meets 720 of these.
     */
    static Optional<PartitionKey> hourOf(String tenant, int year, int month, int day, String segment) {
        if (segment.length() != 7 || !segment.startsWith("hour=")) {
            return Optional.empty();
        }
        char tens = segment.charAt(5);
        char ones = segment.charAt(6);
        if (tens < '0' || tens > '9' || ones < '0' || ones > '9') {
            return Optional.empty();
        }
        try {
            return Optional.of(new PartitionKey(tenant, year, month, day, (tens - '0') * 10 + (ones - '0')));
        } catch (RuntimeException e) {
            return Optional.empty(); // an hour beyond 23: not a canonical hour directory
        }
    }

    /** The value of a canonical {@code name=NN} segment within [min, max], or null (warned) otherwise. */
    private Integer field(Pattern pattern, String segment, int min, int max, String parentPrefix) {
        Matcher m = pattern.matcher(segment);
        if (m.matches()) {
            int v = Integer.parseInt(m.group(1));
            if (v >= min && v <= max) {
                return v;
            }
        }
        LOG.warn("skipping {}: not a canonical directory name", store.describe(parentPrefix + segment + "/"));
        return null;
    }

    private static Instant start(int year, int month, int day) {
        return start(LocalDate.of(year, month, day));
    }

    private static Instant start(LocalDate date) {
        return date.atStartOfDay().toInstant(ZoneOffset.UTC);
    }
}
