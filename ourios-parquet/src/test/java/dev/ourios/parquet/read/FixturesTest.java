package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.footer.FileFooter;
import dev.ourios.parquet.footer.FooterInspector;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.testkit.Testdata;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The reference (Rust) writer's files, in older schema versions, read under the reader contract. */
class FixturesTest {

    @ParameterizedTest
    @CsvSource({"rfc0021-pre-upgrade.parquet,4,false", "rfc0022-pre-amendment.parquet,3,false",
            "rfc0025-pre-amendment.parquet,2,true"})
    void referenceFilesRead(String name, int rows, boolean hasServiceColumn) throws Exception {
        var store = new LocalObjectStore(Testdata.dir("reference-writer"));
        List<LogRecord> records = TestFiles.readAll(store, name, ReadOptions.all());
        assertEquals(rows, records.size());
        try (LogFileReader r = LogFileReader.open(store, name, ReadOptions.all())) {
            assertEquals(rows, r.rowCount());
            assertEquals("arrow_schema", r.fileSchema().getName());
            assertEquals(hasServiceColumn, r.fileSchema().containsField(Columns.SERVICE_NAME));
            assertTrue(r.bytesRead() > 0);
        }
        for (LogRecord rec : records) {
            assertFalse(rec.tenantId().isEmpty());
            assertTrue(rec.attributes().startsWith("["), rec.attributes());
            assertTrue(rec.resourceAttributes().startsWith("["), rec.resourceAttributes());
            assertTrue(rec.bodyKind() >= 0 && rec.bodyKind() <= 2);
            assertTrue(rec.extras().isEmpty(), "reference files have no unknown columns");
            if (!hasServiceColumn) {
                assertNull(rec.serviceName());
            }
            // Effective time: the stored value when present, otherwise recomputed from the source columns.
            long effective = rec.effectiveTime();
            if (rec.effectiveTimeUnixNano() != null) {
                assertEquals(rec.effectiveTimeUnixNano().longValue(), effective);
            }
            assertNotNull(rec.partitionKey());
        }
        // A partition-aware read of the file's own partition passes.
        var partition = records.get(0).partitionKey();
        assertEquals(rows, TestFiles.readAll(store, name, ReadOptions.partition(partition)).size());
    }

    @ParameterizedTest
    @CsvSource({"rfc0021-pre-upgrade.parquet", "rfc0022-pre-amendment.parquet", "rfc0025-pre-amendment.parquet"})
    void referenceFootersInspect(String name) throws Exception {
        var store = new LocalObjectStore(Testdata.dir("reference-writer"));
        FileFooter f = FooterInspector.inspect(store, name);
        assertTrue(f.createdBy().startsWith("parquet-rs"), f.createdBy());
        assertEquals(1, f.rowGroups().size());
        assertEquals(Columns.EFFECTIVE_TIME, f.timeColumn());
        assertNotNull(f.rowGroups().get(0).minTime());
        assertTrue(f.schema().contains("arrow_schema"));
    }
}
