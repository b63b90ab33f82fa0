package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.SortKey;
import dev.ourios.parquet.footer.FileFooter;
import dev.ourios.parquet.footer.FooterInspector;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.QueryStats;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RFC0036.2: a one-service 30-second window over a compacted hour scans few row groups and reads fewer bytes. */
class Rfc0036QueryPruningTest {
    @TempDir
    Path dir;

    private static QueryStats run(LocalObjectStore store, Query q) throws Exception {
        return new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                MeterProvider.noop()).run(q, r -> { });
    }

    @Test
    void rfc0036_2_one_service_window_scans_at_most_ceil_bsw_over_t_plus_2_groups_and_reads_less() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("t"), 1, 32, 2000, 51));
        PartitionKey p = PartitionKey.ofHour("t", TestStores.HOUR);
        // Compact a copy, so every case compares the same rows before and after.
        LocalObjectStore c = new LocalObjectStore(dir.resolve("copy"));
        for (ObjectInfo o : store.listObjects(p.dataPrefix())) {
            c.put(o.key(), store.readAllBytes(o.key()));
        }
        SweepReport report = TestStores.runner(c, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });
        assertEquals(1, report.count(PartitionResult.Result.COMMITTED), report.toString());
        long threshold = RowGroupSizing.adaptive(report.partitions().get(0).bytesIn());
        FileFooter footer = FooterInspector.inspect(c, TestStores.snapshot(c, p).live().get(0).key());
        assertTrue(footer.rowGroups().size() >= 2, "groups: " + footer.rowGroups().size());
        for (String service : List.of("cart", "recommendation", "checkout")) {
            for (int minute : new int[] {5, 31, 58}) {
                Instant from = TestStores.HOUR.plusSeconds(minute * 60L);
                Query q = Query.tenant("t").service(service).window(from, from.plusSeconds(30));
                check(footer, threshold, service, from, run(store, q), run(c, q));
            }
        }
    }

    private void check(FileFooter footer, long threshold, String service, Instant from, QueryStats before,
            QueryStats after) {
        long fromNs = from.getEpochSecond() * 1_000_000_000L;
        long toNs = fromNs + 30_000_000_000L;
        long bsw = 0;
        for (FileFooter.RowGroup g : footer.rowGroups()) {
            boolean holdsService = SortKey.SERVICE_ORDER.compare(g.minServiceName(), service) <= 0
                    && SortKey.SERVICE_ORDER.compare(service, g.maxServiceName()) <= 0;
            boolean overlaps = g.minTime() < toNs && g.maxTime() >= fromNs;
            if (holdsService && overlaps) {
                bsw += g.compressedBytes();
            }
        }
        String ctx = service + " @" + from + ": before " + before + ", after " + after + ", B_sw " + bsw + ", T "
                + threshold + ", groups " + footer.rowGroups().size();
        assertEquals(before.rows(), after.rows(), ctx);
        long bound = (bsw + threshold - 1) / threshold + 2;
        assertTrue(after.rowGroupsScanned() <= bound, ctx + ", bound " + bound);
        assertTrue(after.bytesRead() < before.bytesRead(), ctx);
    }
}
