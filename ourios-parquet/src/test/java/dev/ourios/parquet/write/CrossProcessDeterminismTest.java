package dev.ourios.parquet.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.LogSchema;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.footer.FooterInspector;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.testkit.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * parquet-java's footer encodings come from a HashSet whose order varies per JVM process: two processes must still
 * write identical bytes. Also checks settings that only show in the bytes (ZSTD level, bloom without dictionary).
 */
class CrossProcessDeterminismTest {
    @TempDir
    Path dir;

    @Test
    void twoProcessesWriteIdenticalBytes() throws Exception {
        WriteSampleMain.writeSample(dir, "here.parquet");
        for (int i = 0; i < 2; i++) {
            try (ChildJvm child = ChildJvm.main(WriteSampleMain.class).heap("256m")
                    .args(dir.toString(), "there" + i + ".parquet").mergeStderr().start()) {
                assertEquals(0, child.waitFor(Duration.ofMinutes(2)), child.output());
            }
            assertArrayEquals(Files.readAllBytes(dir.resolve("here.parquet")),
                    Files.readAllBytes(dir.resolve("there" + i + ".parquet")));
        }
    }

    @Test
    void zstdLevelAndServiceBloomReachTheFile() throws Exception {
        var store = new LocalObjectStore(dir);
        Random rnd = new Random(5);
        List<LogRecord> rows = new java.util.ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            rows.add(TestFiles.random(rnd, "svc-" + rnd.nextInt(500)));
        }
        WrittenFile l1 = TestFiles.write(store, "l1.parquet", WriterOptions.ingest().withZstdLevel(1), rows);
        WrittenFile l19 = TestFiles.write(store, "l19.parquet", WriterOptions.ingest().withZstdLevel(19), rows);
        assertTrue(l19.bytes() < l1.bytes(), l1.bytes() + " vs " + l19.bytes());

        // Without dictionaries resource.service.name (a dotted name) gets its bloom filter through the global switch.
        TestFiles.write(store, "nodict.parquet", WriterOptions.ingest().withDictionaries(false), rows);
        var blooms = FooterInspector.inspect(store, "nodict.parquet").rowGroups().get(0).bloomFilterColumns();
        assertTrue(blooms.contains(Columns.SERVICE_NAME), blooms.toString());
        assertTrue(!blooms.contains(Columns.ATTRIBUTES) && !blooms.contains(LogSchema.PARAMS_VALUE), blooms.toString());
        var none = FooterInspector.inspect(store, "l1.parquet").rowGroups().get(0).bloomFilterColumns();
        assertTrue(none.contains(Columns.TRACE_ID), none.toString());
        TestFiles.write(store, "nobloom.parquet", WriterOptions.ingest().withBloomFilters(false), rows);
        assertTrue(FooterInspector.inspect(store, "nobloom.parquet").rowGroups().get(0).bloomFilterColumns().isEmpty());
    }

    @Test
    void compactedFilesGetTheirFiltersFromTheShredderDottedNamesIncluded() throws Exception {
        var store = new LocalObjectStore(dir);
        Random rnd = new Random(7);
        List<LogRecord> rows = new java.util.ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            rows.add(LogRecord.builder("t1").timeUnixNano(TestFiles.HOUR + i).templateId(rnd.nextLong())
                    .traceId(TestFiles.bytes(rnd, 16)).spanId(TestFiles.bytes(rnd, 8))
                    .serviceName("svc-" + rnd.nextInt(500)).extra("attr.latency", rnd.nextDouble())
                    .extra("resource.k8s.pod", "pod-" + rnd.nextInt(300)).build());
        }
        java.util.SortedMap<String, org.apache.parquet.schema.PrimitiveType> extras = new java.util.TreeMap<>();
        extras.put("attr.latency", LogSchema.doubleColumn("attr.latency"));
        extras.put("resource.k8s.pod", LogSchema.stringColumn("resource.k8s.pod"));
        TestFiles.write(store, "c.parquet", WriterOptions.compacted(8 << 20).withDictionaries(false)
                .withExtras(extras), rows);
        var blooms = FooterInspector.inspect(store, "c.parquet").rowGroups().get(0).bloomFilterColumns();
        // Bloom columns whose names have dots get theirs too; a dotted non-bloom column (a DOUBLE) gets none.
        for (String c : List.of(Columns.TRACE_ID, Columns.SPAN_ID, Columns.TEMPLATE_ID, Columns.SERVICE_NAME,
                "resource.k8s.pod")) {
            assertTrue(blooms.contains(c), c + " in " + blooms);
        }
        assertTrue(!blooms.contains("attr.latency") && !blooms.contains(Columns.ATTRIBUTES), blooms.toString());
        assertEquals(rows, TestFiles.readAll(store, "c.parquet", ReadOptions.all()));
    }
}
