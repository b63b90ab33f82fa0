package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.SweepSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.query.Query;
import dev.ourios.table.PartitionFilter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Iceberg view of a band (storage.md §4.14, §10): every file of the band is a data file of the view, Iceberg's
 * reader finds every row, and a one-service scan plans only the band files whose metrics hold that service.
 */
class IcebergBandTest {
    private static final Instant START = Instant.parse("2026-03-10T08:00:00Z");

    @TempDir
    Path dir;

    @Test
    void every_band_file_is_in_the_view_and_a_service_scan_plans_only_the_files_holding_it() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), START, 1, 6, 9000, 29));
        PartitionKey p = gen.partition("acme", 0);
        List<LogRecord> rows = new ArrayList<>();
        try (ViewStore vs = new ViewStore(dir.resolve("store"))) {
            for (int f = 0; f < 6; f++) {
                List<LogRecord> file = gen.file("acme", 0, f);
                vs.ingest(p, file);
                rows.addAll(file);
            }
            CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMaxFileBytes(2L << 20);
            SweepReport sweep = CompactionWiring.sweepRunner(SweepSettings.of(vs.store, opts)
                    .withPlanClock(ViewStore.LATER)).sweep(PartitionFilter.all(), x -> { });
            assertTrue(!sweep.hasErrors(), sweep.toString());
            List<String> band = vs.tables.snapshot(p).manifest().orElseThrow().main();
            assertTrue(band.size() >= 3, "a band: " + band);
            vs.sync();

            assertEquals(vs.liveKeys().stream().map(vs.location::uri).sorted().toList(),
                    IcebergView.currentFiles(vs.table(), vs.location).keySet().stream().map(vs.location::uri)
                            .sorted().toList(), "the view's data files are the band");
            Query all = Query.tenant("acme");
            assertEquals(rows.size(), vs.icebergRows(ViewStore.icebergFilter(all)).size(), "Iceberg reads every row");

            // A service one band file holds alone: Iceberg's metrics prune every other file.
            String service = null;
            for (String name : band) {
                Set<String> here = services(vs, p.dataPrefix() + name);
                Set<String> elsewhere = new HashSet<>();
                for (String other : band) {
                    if (!other.equals(name)) {
                        elsewhere.addAll(services(vs, p.dataPrefix() + other));
                    }
                }
                here.removeAll(elsewhere);
                if (!here.isEmpty()) {
                    service = here.iterator().next();
                    break;
                }
            }
            assertTrue(service != null, "some service is held by one band file alone");
            int planned = 0;
            try (CloseableIterable<FileScanTask> tasks = vs.table().newScan()
                    .filter(ViewStore.icebergFilter(Query.tenant("acme").service(service))).planFiles()) {
                for (FileScanTask ignored : tasks) {
                    planned++;
                }
            }
            assertEquals(1, planned, "a scan for " + service + " plans one band file of " + band.size());
            String wanted = service;
            assertEquals(rows.stream().filter(r -> wanted.equals(r.serviceName())).count(),
                    vs.icebergRows(ViewStore.icebergFilter(Query.tenant("acme").service(service))).size());
        }
    }

    private static Set<String> services(ViewStore vs, String key) throws Exception {
        Set<String> out = new HashSet<>();
        try (LogFileReader r = LogFileReader.open(vs.store, key, ReadOptions.all())) {
            LogRecord rec;
            while ((rec = r.read()) != null) {
                out.add(rec.serviceName());
            }
        }
        return out;
    }
}
