package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.SortKey;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** filter2 pruning through LogFileReader: statistics/dictionary for the sort key, bloom filters for trace ids. */
class PruningTest {
    @TempDir
    Path dir;

    @Test
    void serviceAndTraceIdPredicatesPruneRowGroups() throws Exception {
        long seed = 20261129L;
        Random rnd = new Random(seed);
        List<LogRecord> rows = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            for (int i = 0; i < 2000; i++) {
                LogRecord r = TestFiles.random(rnd, "svc-" + s);
                rows.add(LogRecord.builder(r.tenantId()).timeUnixNano(r.timeUnixNano()).serviceName(r.serviceName())
                        .traceId(TestFiles.bytes(rnd, 16)).templateId(rnd.nextLong()).body(r.body())
                        .attributes(r.attributes()).build());
            }
        }
        rows.sort(SortKey.RECORD_ORDER);
        var store = new LocalObjectStore(dir);
        TestFiles.write(store, "f.parquet", WriterOptions.compacted(1 << 20).withRowGroupRows(2000), rows);
        long size = Files.size(dir.resolve("f.parquet"));

        try (LogFileReader r = LogFileReader.open(store, "f.parquet", ReadOptions.filtered(
                FilterApi.eq(FilterColumns.binary(Columns.SERVICE_NAME), Binary.fromString("svc-2"))))) {
            assertEquals(4, r.rowGroupsTotal());
            assertEquals(1, r.rowGroupsKept());
            int n = 0;
            for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                assertEquals("svc-2", rec.serviceName());
                n++;
            }
            assertEquals(2000, n);
            assertTrue(r.bytesRead() < size * 2 / 3, r.bytesRead() + " of " + size);
        }

        LogRecord probe = rows.get(5123);
        try (LogFileReader r = LogFileReader.open(store, "f.parquet", ReadOptions.filtered(
                FilterApi.eq(FilterApi.binaryColumn(Columns.TRACE_ID), Binary.fromConstantByteArray(probe.traceId()))))) {
            assertEquals(4, r.rowGroupsTotal());
            assertEquals(1, r.rowGroupsKept(), "seed " + seed);
            LogRecord hit = r.read();
            assertArrayEquals(probe.traceId(), hit.traceId());
            assertEquals(probe, hit);
            assertEquals(null, r.read());
        }

        try (LogFileReader r = LogFileReader.open(store, "f.parquet", ReadOptions.filtered(
                FilterApi.eq(FilterColumns.binary(Columns.SERVICE_NAME), Binary.fromString("nope"))))) {
            assertEquals(0, r.rowGroupsKept());
            assertEquals(null, r.read());
        }
    }
}
