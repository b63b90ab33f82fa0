package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.CompactionMetrics;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.PartitionFilter;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditAndMetricsTest {
    @TempDir
    Path dir;

    @Test
    void committed_compaction_writes_one_audit_event_readable_by_duckdb_and_reemits_it_after_loss() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 5, 40, 11));
        SweepRunner runner = TestStores.runner(store, dir.resolve("scratch"));
        SweepReport report = runner.sweep(PartitionFilter.all(), r -> { });
        PartitionResult committed = report.partitions().get(0);

        List<ObjectInfo> events = auditFiles(store);
        assertEquals(1, events.size());
        Properties props = new Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:", props);
                ResultSet rs = c.createStatement().executeQuery("SELECT tenant_id, event_kind, event_type, "
                        + "compaction_partition, len(compaction_input_files), compaction_output_file, "
                        + "compaction_generation, compaction_rows FROM read_parquet('"
                        + store.describe(events.get(0).key()) + "')")) {
            assertTrue(rs.next());
            assertEquals("acme", rs.getString(1));
            assertEquals(3, rs.getInt(2));
            assertEquals("compaction", rs.getString(3));
            assertEquals(PartitionKey.ofHour("acme", TestStores.HOUR).hourPath(), rs.getString(4));
            assertEquals(5, rs.getInt(5));
            assertEquals(committed.output(), rs.getString(6));
            assertEquals(1, rs.getLong(7));
            assertEquals(200, rs.getLong(8));
            assertFalse(rs.next());
        }
        // The process "died" between commit and audit: the event is gone; the next sweep re-emits the same one.
        store.delete(events.get(0).key());
        runner.sweep(PartitionFilter.all(), r -> { });
        List<ObjectInfo> again = auditFiles(store);
        assertEquals(List.of(events.get(0).key()), again.stream().map(ObjectInfo::key).toList());
        runner.sweep(PartitionFilter.all(), r -> { });
        assertEquals(1, auditFiles(store).size(), "re-emission is idempotent");
    }

    private static List<ObjectInfo> auditFiles(LocalObjectStore store) throws Exception {
        List<ObjectInfo> out = new ArrayList<>();
        String t = "audit/tenant_id=acme/";
        for (String y : store.listDirectories(t)) {
            for (String m : store.listDirectories(t + y + "/")) {
                for (String d : store.listDirectories(t + y + "/" + m + "/")) {
                    out.addAll(store.listObjects(t + y + "/" + m + "/" + d + "/"));
                }
            }
        }
        return out;
    }

    @Test
    void sweep_records_the_contract_metrics_with_units_and_attributes() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme", "beta"), 1, 5, 30, 12));
        InMemoryMetricReader reader = InMemoryMetricReader.create();
        try (SdkMeterProvider provider = SdkMeterProvider.builder().registerMetricReader(reader).build()) {
            SweepReport report = TestStores.runner(store, dir.resolve("scratch"),
                    CompactionOptions.defaults(dir.resolve("scratch")), provider)
                    .sweep(PartitionFilter.all(), r -> { });
            Map<String, MetricData> m = reader.collectAllMetrics().stream()
                    .collect(Collectors.toMap(MetricData::getName, Function.identity()));
            assertEquals("{sweep}", m.get("ourios.compaction.sweeps").getUnit());
            var sweep = m.get("ourios.compaction.sweeps").getLongSumData().getPoints().iterator().next();
            assertEquals(1, sweep.getValue());
            assertEquals("committed", sweep.getAttributes().get(CompactionMetrics.RESULT));
            assertEquals(2, m.get("ourios.compaction.partitions").getLongSumData().getPoints().iterator().next()
                    .getValue());
            assertEquals(10, m.get("ourios.compaction.files").getLongSumData().getPoints().iterator().next()
                    .getValue());
            assertEquals(300, m.get("ourios.compaction.rows").getLongSumData().getPoints().iterator().next()
                    .getValue());
            assertEquals("By", m.get("ourios.compaction.io").getUnit());
            long read = m.get("ourios.compaction.io").getLongSumData().getPoints().stream()
                    .filter(pt -> "read".equals(pt.getAttributes().get(CompactionMetrics.IO_DIRECTION)))
                    .findFirst().orElseThrow().getValue();
            assertEquals(report.partitions().stream().mapToLong(PartitionResult::bytesIn).sum(), read);
            assertEquals("s", m.get("ourios.compaction.duration").getUnit());
            assertEquals(2, m.get("ourios.storage.parquet.file.size").getHistogramData().getPoints().size(),
                    "one histogram series per tenant");
            var sizes = m.get("ourios.storage.parquet.file.size").getHistogramData().getPoints().iterator().next();
            assertEquals(CompactionMetrics.FILE_SIZE_BUCKETS.stream().map(Long::doubleValue).toList(),
                    sizes.getBoundaries(), "the band's bounds are bucket bounds");
            assertTrue(CompactionMetrics.FILE_SIZE_BUCKETS.containsAll(List.of(128L << 20, 2L << 30)));
            assertEquals(1, sizes.getCounts().get(0), "a small test file lands in the first bucket (up to 1 MiB)");
            var backlog = m.get("ourios.compaction.backlog");
            assertEquals("{partition}", backlog.getUnit());
            assertTrue(backlog.getLongSumData().getPoints().stream().allMatch(pt -> pt.getValue() == 0));
            assertEquals(2, backlog.getLongSumData().getPoints().size());
            assertTrue(m.containsKey("ourios.compaction.orphan.files"));
        }
    }
}
