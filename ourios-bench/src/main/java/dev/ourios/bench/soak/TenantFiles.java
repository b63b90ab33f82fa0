package dev.ourios.bench.soak;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RFC 0009's H4 per tenant: over the tenant's whole days (every hour of the UTC day written and sealed, so the
 * rollup period is over), the live files a reader opens (day files, the files of hours left hourly, the late files
 * of covered hours), how many are below {@code small_file_bytes}, and the rows rewritten per landed row.
 */
public final class TenantFiles {
    /**
     * One tenant's files at the end of a soak.
     *
     * @param tenant        the tenant
     * @param tenantClass   its class ({@code tenant} without classes)
     * @param days          whole days measured
     * @param files         live files of those days
     * @param belowSmall    of those, files below {@code small_file_bytes}
     * @param liveBytes     their bytes
     * @param landedBytes   ingest bytes landed for the tenant over the whole run
     * @param landedRows    rows landed for the tenant over the whole run
     * @param compacted     rows its hour commits rewrote
     * @param rolledUp      rows its day commits (the rollup) rewrote
     */
    public record Share(String tenant, String tenantClass, int days, long files, long belowSmall, long liveBytes,
            long landedBytes, long landedRows, long compacted, long rolledUp) {
        public double filesPerDay() {
            return days == 0 ? 0 : (double) files / days;
        }

        public double shareBelow() {
            return files == 0 ? 0 : (double) belowSmall / files;
        }

        public double liveBytesPerDay() {
            return days == 0 ? 0 : (double) liveBytes / days;
        }

        public double rewrittenPerLandedRow() {
            return landedRows == 0 ? 0 : (double) (compacted + rolledUp) / landedRows;
        }

        public double rolledUpPerLandedRow() {
            return landedRows == 0 ? 0 : (double) rolledUp / landedRows;
        }
    }

    private final TableLayout layout;
    private final TableReader tables;
    private final long smallFileBytes;

    TenantFiles(TableLayout layout, TableReader tables, long smallFileBytes) {
        this.layout = layout;
        this.tables = tables;
        this.smallFileBytes = smallFileBytes;
    }

    /**
     * @param tenants     every tenant of the run, with its class
     * @param landedRows  rows landed per tenant
     * @param landedBytes ingest bytes landed per tenant
     * @param rewrites    rows rewritten per tenant
     */
    List<Share> measure(Map<String, String> tenants, Map<String, Long> landedRows, Map<String, Long> landedBytes,
            Map<String, CompactionTally.Rewrites> rewrites) throws IOException {
        Map<String, Files> acc = new LinkedHashMap<>();
        tenants.keySet().forEach(t -> acc.put(t, new Files()));
        for (LiveDays.Day d : new LiveDays(layout, tables).read()) {
            Files f = acc.get(d.day().tenantId());
            if (f == null || d.hours().size() < 24) {
                continue; // another tenant's, or a day the run did not fill: its rollup period is not over
            }
            f.days++;
            f.add(d.files().live());
            d.hours().values().forEach(h -> f.add(h.live()));
        }
        List<Share> out = new ArrayList<>();
        acc.forEach((t, f) -> {
            CompactionTally.Rewrites r = rewrites.getOrDefault(t, new CompactionTally.Rewrites(0, 0));
            out.add(new Share(t, tenants.get(t), f.days, f.files, f.below, f.bytes, landedBytes.getOrDefault(t, 0L),
                    landedRows.getOrDefault(t, 0L), r.compacted(), r.rolledUp()));
        });
        return out;
    }

    /** One tenant's whole days, added up. */
    private final class Files {
        int days;
        long files;
        long below;
        long bytes;

        void add(List<ObjectInfo> live) {
            for (ObjectInfo f : live) {
                files++;
                below += f.size() < smallFileBytes ? 1 : 0;
                bytes += f.size();
            }
        }
    }

    /** Rows landed per tenant, from the writer's digests of each partition. */
    static Map<String, Long> rowsByTenant(Map<PartitionKey, Digest> landed) {
        Map<String, Long> out = new LinkedHashMap<>();
        landed.forEach((p, d) -> out.merge(p.tenantId(), d.rows(), Long::sum));
        return out;
    }
}
