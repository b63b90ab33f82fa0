package dev.ourios.compaction.audit;

import dev.ourios.core.PartitionKey;
import dev.ourios.core.TenantCodec;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The audit series as readers see it: its days, walked one directory level at a time (non-canonical names are
 * skipped), and each day's live files, resolved from one listing and the day's manifest exactly as a partition's
 * are. Reading the live files, never a glob of the directories, sees every event once, also while a day is being
 * compacted or its merged files wait for GC.
 */
public final class AuditSeries {
    private final ObjectStore store;
    private final TableReader reader;

    public AuditSeries(ObjectStore store, TableReader reader) {
        this.store = store;
        this.reader = reader;
    }

    /**
     * Every day of the tenants in scope (all when empty), oldest first. A scoped walk lists only its tenants'
     * directories, never the series root, so work on one tenant touches no other tenant's prefix.
     */
    public List<AuditDay> days(Optional<Set<String>> tenants) throws IOException {
        List<AuditDay> out = new ArrayList<>();
        if (tenants.isPresent()) {
            for (String t : tenants.get()) {
                walk(t, PartitionKey.AUDIT_ROOT + PartitionKey.tenantSegment(t) + "/", out);
            }
        } else {
            for (String dir : store.listDirectories(PartitionKey.AUDIT_ROOT)) {
                Optional<String> tenant = dir.startsWith("tenant_id=")
                        ? TenantCodec.decode(dir.substring("tenant_id=".length())) : Optional.empty();
                if (tenant.isPresent()) {
                    walk(tenant.get(), PartitionKey.AUDIT_ROOT + dir + "/", out);
                }
            }
        }
        out.sort(Comparator.comparing(AuditDay::date).thenComparing(AuditDay::tenantId));
        return out;
    }

    private void walk(String tenant, String tenantPrefix, List<AuditDay> out) throws IOException {
        for (String y : store.listDirectories(tenantPrefix)) {
            for (String m : store.listDirectories(tenantPrefix + y + "/")) {
                for (String d : store.listDirectories(tenantPrefix + y + "/" + m + "/")) {
                    date(y, m, d).ifPresent(date -> out.add(new AuditDay(tenant, date)));
                }
            }
        }
    }

    /** The keys of the tenant's live audit files, days overlapping {@code [from, to)} (all when absent), in order. */
    public List<String> liveKeys(String tenant, Optional<Instant> from, Optional<Instant> to) throws IOException {
        List<String> out = new ArrayList<>();
        for (AuditDay day : days(Optional.of(Set.of(tenant)))) {
            Instant start = day.date().atStartOfDay().toInstant(ZoneOffset.UTC);
            if (to.map(t -> !start.isBefore(t)).orElse(false) || from.map(f -> !day.end().isAfter(f)).orElse(false)) {
                continue;
            }
            for (ObjectInfo o : reader.snapshot(day.label(), day.prefix()).live()) {
                out.add(o.key());
            }
        }
        return out;
    }

    private static Optional<LocalDate> date(String y, String m, String d) {
        if (!y.matches("year=\\d{4}") || !m.matches("month=\\d{2}") || !d.matches("day=\\d{2}")) {
            return Optional.empty();
        }
        try {
            return Optional.of(LocalDate.of(Integer.parseInt(y.substring(5)), Integer.parseInt(m.substring(6)),
                    Integer.parseInt(d.substring(4))));
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }
}
