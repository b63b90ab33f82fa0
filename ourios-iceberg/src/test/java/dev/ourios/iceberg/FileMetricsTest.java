package dev.ourios.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.table.ingest.IngestWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bounds are written only when certain: a row group with values but no min/max leaves the column unbounded. */
class FileMetricsTest {
    @TempDir
    Path dir;

    @Test
    void valuesWithoutStatisticsLeaveTheColumnWithoutBounds() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), Instant.parse("2026-04-01T00:00:00Z"),
                1, 1, 200, 4));
        try (ViewStore vs = new ViewStore(dir)) {
            PartitionKey p = gen.partition("acme", 0);
            List<LogRecord> rows = new ArrayList<>(gen.file("acme", 0, 0));
            // The last row group's largest attribute list is far over the 4 KiB statistics limit, so that group
            // has attribute values but no min/max.
            String huge = "[{\"key\":\"zzz.blob\",\"value\":{\"stringValue\":\"" + "z".repeat(6000) + "\"}}]";
            LogRecord last = rows.remove(rows.size() - 1);
            rows.add(IcebergViewEvolutionTest.copy(last).attributes(huge).build());
            new IngestWriter(vs.store, Uuid7.system(), WriterOptions.ingest().withRowGroupRows(100)).writeFile(p, rows);
            vs.sync();
            DataFile f = IcebergViewAgreementTest.withStats(vs).values().iterator().next();
            int attributes = vs.table().schema().findField("attributes").fieldId();
            int service = vs.table().schema().findField("resource.service.name").fieldId();
            int time = vs.table().schema().findField("time_unix_nano").fieldId();
            assertFalse(f.lowerBounds().containsKey(attributes), "attributes has values without statistics");
            assertTrue(f.lowerBounds().containsKey(time) && f.upperBounds().containsKey(time));
            assertTrue(f.lowerBounds().containsKey(service));
            assertEquals(200L, f.recordCount());
            // An engine filtering on the unbounded column still finds the row.
            assertEquals(1, vs.icebergRows(Expressions.equal("attributes", huge)).size());
        }
    }
}
