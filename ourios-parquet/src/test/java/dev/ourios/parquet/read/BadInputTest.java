package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.LogFormatException;
import dev.ourios.parquet.LogSchema;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BadInputTest {
    @TempDir
    Path dir;

    private void assertFormatError(LocalObjectStore store, String key, String... fragments) {
        LogFormatException e = assertThrows(LogFormatException.class,
                () -> TestFiles.readAll(store, key, ReadOptions.all()));
        assertTrue(e.getMessage().contains(store.describe(key)), e.getMessage());
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), e.getMessage());
        }
    }

    @Test
    void zeroByteTruncatedAndRandomFilesNameTheFile() throws Exception {
        var store = new LocalObjectStore(dir);
        Files.write(dir.resolve("empty.parquet"), new byte[0]);
        assertFormatError(store, "empty.parquet");

        Random rnd = new Random(42);
        List<LogRecord> rows = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            rows.add(TestFiles.random(rnd, "svc"));
        }
        TestFiles.write(store, "good.parquet", WriterOptions.ingest(), rows);
        byte[] good = Files.readAllBytes(dir.resolve("good.parquet"));
        Files.write(dir.resolve("truncated.parquet"), java.util.Arrays.copyOf(good, good.length / 2));
        assertFormatError(store, "truncated.parquet");
        Files.write(dir.resolve("random.parquet"), TestFiles.bytes(rnd, 5000));
        assertFormatError(store, "random.parquet");
        // Valid trailer, garbage footer.
        byte[] junk = TestFiles.bytes(rnd, 100);
        System.arraycopy(new byte[] {50, 0, 0, 0, 'P', 'A', 'R', '1'}, 0, junk, 92, 8);
        Files.write(dir.resolve("junkfooter.parquet"), junk);
        assertFormatError(store, "junkfooter.parquet");
    }

    @Test
    void missingRequiredColumnIsNamedBeforeAnyRow() throws Exception {
        MessageType full = LogSchema.base().messageType();
        List<Type> fields = new ArrayList<>(full.getFields());
        fields.removeIf(f -> f.getName().equals(Columns.FLAGS) || f.getName().equals(Columns.EFFECTIVE_TIME));
        MessageType schema = new MessageType("old", fields);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(dir.resolve("noflags.parquet")))
                .withConf(new PlainParquetConfiguration()).withType(schema).build()) {
            w.write(requiredRow(new SimpleGroupFactory(schema)));
        }
        var store = new LocalObjectStore(dir);
        assertFormatError(store, "noflags.parquet", "'flags'");
    }

    @Test
    void missingEffectiveTimeAndServiceNameReadAsNull() throws Exception {
        MessageType full = LogSchema.base().messageType();
        List<Type> fields = new ArrayList<>(full.getFields());
        fields.removeIf(f -> f.getName().equals(Columns.EFFECTIVE_TIME) || f.getName().equals(Columns.SERVICE_NAME));
        MessageType schema = new MessageType("old", fields);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(dir.resolve("old.parquet")))
                .withConf(new PlainParquetConfiguration()).withType(schema).build()) {
            Group g = requiredRow(new SimpleGroupFactory(schema));
            g.add(Columns.FLAGS, 1);
            w.write(g);
        }
        var store = new LocalObjectStore(dir);
        List<LogRecord> rows = TestFiles.readAll(store, "old.parquet", ReadOptions.all());
        assertEquals(1, rows.size());
        assertEquals(null, rows.get(0).effectiveTimeUnixNano());
        assertEquals(TestFiles.HOUR + 7, rows.get(0).effectiveTime());
        assertEquals(null, rows.get(0).serviceName());
        assertEquals("t1", rows.get(0).tenantId());
        assertEquals(1, rows.get(0).flags());
    }

    private static Group requiredRow(SimpleGroupFactory f) {
        Group g = f.newGroup();
        g.add(Columns.TENANT_ID, "t1");
        g.add(Columns.TEMPLATE_ID, 1L);
        g.add(Columns.TEMPLATE_VERSION, 1);
        g.add(Columns.TIME, TestFiles.HOUR + 7);
        g.add(Columns.SEVERITY_NUMBER, 9);
        g.add(Columns.ATTRIBUTES, "[]");
        g.add(Columns.DROPPED_ATTRIBUTES_COUNT, 0);
        g.add(Columns.RESOURCE_ATTRIBUTES, "[]");
        g.add(Columns.BODY_KIND, 2);
        g.addGroup(Columns.PARAMS);
        g.addGroup(Columns.SEPARATORS).addGroup("list").add("element", "x");
        g.add(Columns.CONFIDENCE, 1.0f);
        g.add(Columns.LOSSY_FLAG, false);
        return g;
    }

    @Test
    void partitionMismatchNamesFileRowAndBothKeys() throws Exception {
        var store = new LocalObjectStore(dir);
        List<LogRecord> rows = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            rows.add(LogRecord.builder("t1").timeUnixNano(TestFiles.HOUR + i).build());
        }
        rows.add(LogRecord.builder("t1").timeUnixNano(TestFiles.HOUR + 3_600_000_000_000L).build());
        TestFiles.write(store, "p.parquet", WriterOptions.ingest(), rows);
        PartitionKey expected = PartitionKey.of("t1", TestFiles.HOUR);
        PartitionMismatchException e = assertThrows(PartitionMismatchException.class,
                () -> TestFiles.readAll(store, "p.parquet", ReadOptions.partition(expected)));
        assertEquals(10, e.rowIndex());
        assertEquals(expected, e.expected());
        assertEquals(PartitionKey.of("t1", TestFiles.HOUR + 3_600_000_000_000L), e.actual());
        assertTrue(e.getMessage().contains(store.describe("p.parquet")), e.getMessage());
        assertTrue(e.getMessage().contains("row 10"), e.getMessage());
        assertTrue(e.getMessage().contains(expected.toString()) && e.getMessage().contains(e.actual().toString()));
        // Another tenant is a mismatch too.
        assertThrows(PartitionMismatchException.class, () -> TestFiles.readAll(store, "p.parquet",
                ReadOptions.partition(PartitionKey.of("t2", TestFiles.HOUR))));
    }
}
