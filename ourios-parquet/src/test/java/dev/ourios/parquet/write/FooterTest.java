package dev.ourios.parquet.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.SortKey;
import dev.ourios.parquet.LogSchema;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.footer.FileFooter;
import dev.ourios.parquet.footer.FooterInspector;
import dev.ourios.parquet.footer.Footers;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SortingColumn;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Determinism, sorting_columns, footer inspection and schema union. */
class FooterTest {
    @TempDir
    Path dir;

    private List<LogRecord> sortedRows(long seed, int n) {
        Random rnd = new Random(seed);
        List<LogRecord> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(TestFiles.random(rnd, i % 7 == 0 ? null : "svc-" + rnd.nextInt(4)));
        }
        rows.sort(SortKey.RECORD_ORDER);
        return rows;
    }

    private FileMetaData raw(LocalObjectStore store, String key) throws Exception {
        try (var in = store.openRandomAccess(key)) {
            return Footers.readRaw(in, key);
        }
    }

    @Test
    void sameRowsGiveByteIdenticalFilesWithSortedEncodings() throws Exception {
        var store = new LocalObjectStore(dir);
        List<LogRecord> rows = sortedRows(7, 2000);
        WriterOptions opts = WriterOptions.compacted(1 << 20).withRowGroupRows(600);
        TestFiles.write(store, "a.parquet", opts, rows);
        TestFiles.write(store, "b.parquet", opts, rows);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a.parquet")), Files.readAllBytes(dir.resolve("b.parquet")));
        for (RowGroup rg : raw(store, "a.parquet").getRow_groups()) {
            for (ColumnChunk cc : rg.getColumns()) {
                var enc = cc.getMeta_data().getEncodings();
                for (int i = 1; i < enc.size(); i++) {
                    assertTrue(enc.get(i - 1).getValue() < enc.get(i).getValue(), enc.toString());
                }
            }
        }
    }

    @Test
    void sortingColumnsDeclaredOnlyWhenAsked() throws Exception {
        var store = new LocalObjectStore(dir);
        List<LogRecord> rows = sortedRows(8, 1500);
        TestFiles.write(store, "sorted.parquet", WriterOptions.compacted(1 << 20).withRowGroupRows(500), rows);
        TestFiles.write(store, "plain.parquet", WriterOptions.ingest().withRowGroupRows(500), rows);

        MessageType schema = LogSchema.base().messageType();
        int service = FooterRewrite.leafIndex(schema, Columns.SERVICE_NAME);
        int effective = FooterRewrite.leafIndex(schema, Columns.EFFECTIVE_TIME);
        FileMetaData sorted = raw(store, "sorted.parquet");
        assertEquals(3, sorted.getRow_groups().size());
        for (RowGroup rg : sorted.getRow_groups()) {
            assertEquals(List.of(new SortingColumn(service, false, true), new SortingColumn(effective, false, false)),
                    rg.getSorting_columns());
        }
        for (RowGroup rg : raw(store, "plain.parquet").getRow_groups()) {
            assertFalse(rg.isSetSorting_columns());
        }
        // The rewritten file still reads, rows unchanged.
        assertEquals(rows, TestFiles.readAll(store, "sorted.parquet", ReadOptions.all()));

        FileFooter f = FooterInspector.inspect(store, "sorted.parquet");
        assertEquals(1500, f.rows());
        assertEquals(Files.size(dir.resolve("sorted.parquet")), f.fileBytes());
        assertTrue(f.createdBy().startsWith("parquet-mr"), f.createdBy());
        FileFooter.RowGroup first = f.rowGroups().get(0);
        assertEquals(List.of("resource.service.name ASC NULLS FIRST", "effective_time_unix_nano ASC NULLS LAST"),
                first.sortingColumns());
        assertTrue(first.bloomFilterColumns().contains(Columns.TRACE_ID), first.bloomFilterColumns().toString());
        assertTrue(first.bloomFilterColumns().contains(Columns.TEMPLATE_ID));
        assertFalse(first.bloomFilterColumns().contains(Columns.BODY));
        FileFooter.RowGroup last = f.rowGroups().get(2);
        assertEquals(rows.get(1499).serviceName(), last.maxServiceName());
        assertTrue(first.minTime() <= first.maxTime());
        assertTrue(first.compressedBytes() > 0 && first.uncompressedBytes() > 0);
        assertTrue(FooterInspector.inspect(store, "plain.parquet").rowGroups().get(0).sortingColumns().isEmpty());
    }

    @Test
    void unionKeepsEveryColumnAnyInputHas() {
        var a = new TreeMap<String, PrimitiveType>();
        a.put("attr.http.route", LogSchema.stringColumn("attr.http.route"));
        var b = new TreeMap<String, PrimitiveType>();
        b.put("attr.count", LogSchema.int64Column("attr.count"));
        MessageType old = new MessageType("arrow_schema", LogSchema.base().messageType().getFields().subList(0, 26));
        LogSchema u = LogSchema.union(List.of(LogSchema.of(a).messageType(), old, LogSchema.of(b).messageType()));
        List<String> names = u.messageType().getFields().stream().map(t -> t.getName()).toList();
        List<String> expected = new ArrayList<>(Columns.BASE);
        expected.add(Columns.SERVICE_NAME);
        expected.add("attr.count");
        expected.add("attr.http.route");
        assertEquals(expected, names);
        var conflict = new TreeMap<String, PrimitiveType>();
        conflict.put("attr.count", LogSchema.doubleColumn("attr.count"));
        assertThrows(IllegalArgumentException.class,
                () -> LogSchema.union(List.of(LogSchema.of(b).messageType(), LogSchema.of(conflict).messageType())));
        assertThrows(IllegalArgumentException.class, () -> LogSchema.of(new TreeMap<>(java.util.Map.of(
                Columns.BODY, LogSchema.stringColumn(Columns.BODY)))));
    }
}
