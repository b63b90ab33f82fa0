package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers of a band (storage.md §4.14): a query for a service that one band file holds reads only that file's row
 * groups (the others are pruned on their footers' service statistics) and returns the rows the uncompacted partition
 * returns; DuckDB reading every live file finds every row; the audit event lists every file of the band.
 */
class BandQueryTest {
    @TempDir
    Path dir;

    @Test
    void a_query_prunes_to_the_band_file_holding_its_service_and_duckdb_reads_every_row() throws Exception {
        LocalObjectStore raw = new LocalObjectStore(dir.resolve("raw"));
        TestStores.generate(raw, TestStores.spec(List.of("acme"), 1, 6, 9000, 23));
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        for (ObjectInfo o : raw.listObjects(p.dataPrefix())) {
            store.put(o.key(), raw.readAllBytes(o.key()));
        }
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMaxFileBytes(2L << 20);
        SweepReport report = TestStores.runner(store, dir.resolve("scratch"), opts, MeterProvider.noop())
                .sweep(PartitionFilter.all(), r -> { });
        assertFalse(report.hasErrors(), report.toString());
        List<String> band = TestStores.snapshot(store, p).manifest().orElseThrow().main();
        assertTrue(band.size() >= 3, "a band: " + band);

        // The services each band file holds, and one service that only one file holds.
        Map<String, List<Integer>> filesOfService = new TreeMap<>();
        Map<Integer, Integer> groupsOfFile = new HashMap<>();
        List<LogRecord> rows = new ArrayList<>();
        for (int i = 0; i < band.size(); i++) {
            String key = p.dataPrefix() + band.get(i);
            groupsOfFile.put(i, FooterInspector.inspect(store, key).rowGroups().size());
            int file = i;
            List<LogRecord> fileRows = TestStores.readAll(store, key);
            rows.addAll(fileRows);
            fileRows.stream().map(LogRecord::serviceName).distinct()
                    .forEach(s -> filesOfService.computeIfAbsent(s, k -> new ArrayList<>()).add(file));
        }
        Map.Entry<String, List<Integer>> alone = filesOfService.entrySet().stream()
                .filter(e -> e.getValue().size() == 1).findFirst().orElseThrow(
                        () -> new AssertionError("no service held by one band file alone: " + filesOfService));
        String service = alone.getKey();
        int file = alone.getValue().get(0);

        Query q = Query.tenant("acme").service(service).window(TestStores.HOUR, TestStores.HOUR.plusSeconds(3600));
        List<String> got = new ArrayList<>();
        QueryStats stats = engine(store).run(q, r -> got.add(TestStores.identity(r)));
        List<String> want = new ArrayList<>();
        engine(raw).run(q, r -> want.add(TestStores.identity(r)));
        assertEquals(want.stream().sorted().toList(), got.stream().sorted().toList(),
                "the band answers as the uncompacted partition does");
        long otherGroups = groupsOfFile.entrySet().stream().filter(e -> e.getKey() != file)
                .mapToLong(Map.Entry::getValue).sum();
        assertTrue(stats.rowGroupsScanned() <= groupsOfFile.get(file),
                "only the groups of band file " + file + " are scanned: " + stats);
        assertTrue(stats.rowGroupsPruned() >= otherGroups, "every group of the other files is pruned: " + stats);

        Properties props = new Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        String files = band.stream().map(n -> "'" + store.describe(p.dataPrefix() + n) + "'")
                .collect(Collectors.joining(","));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:", props);
                ResultSet rs = c.createStatement().executeQuery("SELECT \"resource.service.name\", count(*) FROM "
                        + "read_parquet([" + files + "]) GROUP BY 1 ORDER BY 1")) {
            Map<String, Long> duck = new TreeMap<>();
            while (rs.next()) {
                duck.put(String.valueOf(rs.getString(1)), rs.getLong(2));
            }
            Map<String, Long> ours = new TreeMap<>(rows.stream().collect(Collectors.groupingBy(
                    r -> String.valueOf(r.serviceName()), Collectors.counting())));
            assertEquals(ours, duck, "DuckDB over every band file finds every row");
        }
    }

    private static QueryEngine engine(LocalObjectStore store) {
        return new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                MeterProvider.noop());
    }
}
