package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.json.FirstStringCache;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.rows.StringTable;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.parquet.write.WriterTestAccess;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.testkit.Testdata;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.parquet.column.Encoding;
import java.util.function.UnaryOperator;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.factory.DefaultV1ValuesWriterFactory;
import org.apache.parquet.column.values.factory.DefaultV2ValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential tests of our column decoding ({@link ColumnarRows}): every file is read twice, by it and by
 * parquet-java's record reader, and the records must be equal, field for field, in order. Each test also checks
 * that the columnar path was really taken (or, for encodings it does not decode, really not taken).
 */
public class ColumnarRowsTest {
    @TempDir
    Path dir;

    private static final UnaryOperator<ParquetProperties.Builder> V1 = UnaryOperator.identity();

    @Test
    void randomFilesDecodeLikeParquetJava() throws IOException {
        long seed = Long.getLong("ourios.test.seed", System.nanoTime());
        System.out.println("ColumnarRowsTest seed " + seed + " (replay with -Dourios.test.seed=" + seed + ")");
        Random rnd = new Random(seed);
        ObjectStore store = new LocalObjectStore(dir);
        for (int iteration = 0; iteration < 16; iteration++) {
            List<LogRecord> records = records(rnd, 1 + rnd.nextInt(3000), rnd.nextInt(4) == 0);
            WriterOptions opts = WriterOptions.ingest().withExtras(TestFiles.extrasOfEveryType())
                    // At most 256 row groups: a file holds each group's bloom filters until its footer, and
                    // thousands of groups of a few rows each ran a 2 GiB heap out.
                    .withRowGroupRows(Math.max(1 + rnd.nextInt(2000), records.size() / 256 + 1))
                    .withRowGroupBytes(rnd.nextBoolean() ? 64 << 10 : 8 << 20)
                    .withDictionaries(rnd.nextInt(4) != 0);
            String key = "f" + iteration + ".parquet";
            write(store, key, opts, V1, records);
            assertSameRecords(store, key, true, "seed " + seed + " iteration " + iteration);
        }
    }

    @Test
    void dictionaryFallingBackToPlainMidChunk() throws IOException {
        Random rnd = new Random(7);
        ObjectStore store = new LocalObjectStore(dir);
        // A first page (parquet-java's 20,000-row page limit) of three routes, dictionary-encoded; then ~1.2 MiB of
        // distinct 250-byte routes: past the dictionary's size limit, the later pages are PLAIN.
        List<LogRecord> records = records(rnd, 30_500, 20_500);
        write(store, "fallback.parquet", WriterOptions.ingest().withExtras(TestFiles.extrasOfEveryType()),
                V1, records);
        Set<Encoding> attributes = null;
        try (var reader = org.apache.parquet.hadoop.ParquetFileReader.open(
                new StoreInputFile(store.openRandomAccess("fallback.parquet"), "fallback.parquet"))) {
            for (ColumnChunkMetaData c : reader.getFooter().getBlocks().get(0).getColumns()) {
                if (c.getPath().toDotString().equals("attr.http.route")) {
                    attributes = c.getEncodings();
                }
            }
        }
        assertTrue(attributes.contains(Encoding.PLAIN_DICTIONARY) && attributes.contains(Encoding.PLAIN),
                "attr.http.route chunk should fall back mid-chunk, encodings " + attributes);
        assertSameRecords(store, "fallback.parquet", true, "fallback");
    }

    @Test
    void version2PagesDecodeLikeParquetJava() throws IOException {
        Random rnd = new Random(11);
        ObjectStore store = new LocalObjectStore(dir);
        WriterOptions opts = WriterOptions.ingest().withExtras(TestFiles.extrasOfEveryType()).withRowGroupRows(1000)
                .withRowGroupBytes(64 << 10);
        // Data pages V2 (levels outside the compressed data) with V1's value encodings, RLE booleans: decoded here.
        UnaryOperator<ParquetProperties.Builder> v2Pages = b -> b.withWriterVersion(WriterVersion.PARQUET_2_0)
                .withValuesWriterFactory(new V1EncodingsRleBooleans());
        write(store, "v2.parquet", opts, v2Pages, records(rnd, 3000, rnd.nextBoolean()));
        assertSameRecords(store, "v2.parquet", true, "v2 pages");
        // parquet-java's V2 writer: DELTA encodings, which we do not decode; parquet-java's reader reads the file.
        write(store, "v2delta.parquet", opts, b -> b.withWriterVersion(WriterVersion.PARQUET_2_0),
                records(rnd, 3000, true));
        assertSameRecords(store, "v2delta.parquet", false, "v2 encodings");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rfc0021-pre-upgrade.parquet", "rfc0022-pre-amendment.parquet",
            "rfc0025-pre-amendment.parquet"})
    void referenceWriterFilesDecodeLikeParquetJava(String name) throws IOException {
        ObjectStore store = new LocalObjectStore(Testdata.dir("reference-writer"));
        assertSameRecords(store, name, true, name);
    }

    @Test
    void edgeRecordsDecodeLikeParquetJava() throws IOException {
        ObjectStore store = new LocalObjectStore(dir);
        List<LogRecord> records = new ArrayList<>(TestFiles.edgeRecords());
        records.add(TestFiles.bothZero());
        write(store, "edge.parquet", WriterOptions.ingest(), V1, records);
        assertSameRecords(store, "edge.parquet", true, "edge");
        assertEquals(records, TestFiles.readAll(store, "edge.parquet", ReadOptions.all()));
    }

    private static void assertSameRecords(ObjectStore store, String key, boolean columnar, String what)
            throws IOException {
        List<LogRecord> expected = new ArrayList<>();
        try (LogFileReader r = LogFileReader.openWithRecordReader(store, key, ReadOptions.all())) {
            assertFalse(r.decodesColumns());
            for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                expected.add(rec);
            }
        }
        List<LogRecord> actual = new ArrayList<>();
        try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all())) {
            assertEquals(columnar, r.decodesColumns(), what + ": columnar path taken; encodings "
                    + encodings(store, key));
            for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                actual.add(rec);
            }
        }
        assertEquals(expected.size(), actual.size(), what + ": rows");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ": row " + i);
        }
        assertSameEncoded(store, key, columnar, expected, what);
    }

    /**
     * {@link LogFileReader#readProjected} (straight from the pages on the columnar path) writes, row for row, what
     * {@link RowCodec#encode} makes of the re-projected record, references and weight included.
     */
    private static void assertSameEncoded(ObjectStore store, String key, boolean columnar, List<LogRecord> records,
            String what) throws IOException {
        FirstStringCache services = FirstStringCache.serviceName();
        UnaryOperator<String> serviceOf = json -> services.get(json).orElse(null);
        TableStrings expectedTable = new TableStrings();
        TableStrings actualTable = new TableStrings();
        RowCodec.Output expected = new RowCodec.Output(64);
        RowCodec.Output actual = new RowCodec.Output(64);
        try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all())) {
            assertEquals(columnar, r.decodesColumns(), what);
            for (int i = 0; i < records.size(); i++) {
                LogRecord rec = records.get(i);
                long origin = RowCodec.origin(3, i);
                expected.reset();
                actual.reset();
                int expectedWeight = RowCodec.encode(rec.reprojected(serviceOf.apply(rec.resourceAttributes())),
                        origin, expectedTable, expected);
                int actualWeight = r.readProjected(origin, serviceOf, actualTable, actual);
                assertEquals(expectedWeight, actualWeight, what + ": weight of row " + i);
                assertArrayEquals(Arrays.copyOf(expected.array(), expected.size()),
                        Arrays.copyOf(actual.array(), actual.size()), what + ": encoded row " + i);
                assertEquals(RowCodec.decode(expected.array(), 0, expectedTable),
                        RowCodec.decode(actual.array(), 0, actualTable), what + ": row " + i);
            }
            assertEquals(-1, r.readProjected(0, serviceOf, actualTable, actual), what + ": end");
        }
    }

    /** A string table that takes every value (ids in the order of first use). */
    private static final class TableStrings implements StringTable {
        private final java.util.Map<String, Integer> ids = new java.util.HashMap<>();
        private final List<String> values = new ArrayList<>();

        @Override
        public int intern(String s) {
            return ids.computeIfAbsent(s, v -> {
                values.add(v);
                return values.size() - 1;
            });
        }

        @Override
        public byte[] utf8(int id) {
            return values.get(id).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public String string(int id) {
            return values.get(id);
        }
    }

    private static java.util.Map<String, Set<Encoding>> encodings(ObjectStore store, String key) throws IOException {
        java.util.Map<String, Set<Encoding>> out = new java.util.TreeMap<>();
        try (var reader = org.apache.parquet.hadoop.ParquetFileReader.open(
                new StoreInputFile(store.openRandomAccess(key), key))) {
            for (var block : reader.getFooter().getBlocks()) {
                for (ColumnChunkMetaData c : block.getColumns()) {
                    out.computeIfAbsent(c.getPath().toDotString(), k -> new java.util.TreeSet<>())
                            .addAll(c.getEncodings());
                }
            }
        }
        return out;
    }

    private static void write(ObjectStore store, String key, WriterOptions opts,
            UnaryOperator<ParquetProperties.Builder> encoding, List<LogRecord> records) throws IOException {
        try (LogFileWriter w = WriterTestAccess.writer(store.create(key), opts, encoding, false)) {
            for (LogRecord r : records) {
                w.write(r);
            }
            w.commit();
        }
    }

    /** Random records with random extras (nulls included); {@code distinct}: long unique values in every row. */
    private static List<LogRecord> records(Random rnd, int n, boolean distinct) {
        return records(rnd, n, distinct ? 0 : -1);
    }

    /**
     * Random records with random extras (nulls included); from row {@code distinctFrom} on (none if negative), long
     * unique attributes and routes in every row (past a dictionary's size limit within a few thousand rows).
     */
    public static List<LogRecord> records(Random rnd, int n, int distinctFrom) {
        List<LogRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int row = i;
            boolean distinct = distinctFrom >= 0 && i >= distinctFrom;
            out.add(TestFiles.random(rnd, "svc" + rnd.nextInt(5), b -> {
                if (distinct) {
                    b.attributes("[{\"key\":\"u\",\"value\":{\"stringValue\":\"" + row + "-" + "x".repeat(240)
                            + "\"}}]");
                }
                if (rnd.nextBoolean()) {
                    b.extra("attr.http.route", distinct ? "/r/" + row + "/" + "y".repeat(240) : "/r/" + rnd.nextInt(3));
                }
                if (rnd.nextBoolean()) {
                    b.extra("attr.count", rnd.nextLong());
                }
                if (rnd.nextBoolean()) {
                    b.extra("attr.latency", rnd.nextDouble());
                }
                if (rnd.nextBoolean()) {
                    b.extra("x_int", rnd.nextInt());
                }
                if (rnd.nextBoolean()) {
                    b.extra("x_float", rnd.nextFloat());
                }
                if (rnd.nextBoolean()) {
                    b.extra("x_bool", rnd.nextBoolean());
                }
                if (rnd.nextBoolean()) {
                    b.extra("x_bin", TestFiles.bytes(rnd, rnd.nextInt(9)));
                }
                if (rnd.nextBoolean()) {
                    b.extra("x_fixed", TestFiles.bytes(rnd, 4));
                }
            }));
        }
        return out;
    }

    /** V1's value encodings except booleans, which get V2's RLE encoding. */
    static final class V1EncodingsRleBooleans implements ValuesWriterFactory {
        private final DefaultV1ValuesWriterFactory v1 = new DefaultV1ValuesWriterFactory();
        private final DefaultV2ValuesWriterFactory v2 = new DefaultV2ValuesWriterFactory();

        @Override
        public void initialize(ParquetProperties properties) {
            v1.initialize(properties);
            v2.initialize(properties);
        }

        @Override
        public ValuesWriter newValuesWriter(ColumnDescriptor column) {
            return column.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.BOOLEAN
                    ? v2.newValuesWriter(column) : v1.newValuesWriter(column);
        }
    }
}
