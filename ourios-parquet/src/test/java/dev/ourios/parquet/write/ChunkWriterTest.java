package dev.ourios.parquet.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.read.ColumnarRowsTest;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.parquet.read.ReaderTestAccess;
import dev.ourios.parquet.read.StoreInputFile;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.testkit.TestSeed;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our page encoding ({@link ChunkWriter}) against parquet-java's column writers: the same records written both ways
 * read back equal (through parquet-java's record reader, our column decoding and DuckDB), with the same chunk
 * statistics, page indexes where parquet-java writes them, and only the encodings we mean to write.
 */
class ChunkWriterTest {
    private static final Set<Encoding> OURS = Set.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY, Encoding.RLE,
            Encoding.BIT_PACKED);

    @TempDir
    Path dir;

    @Test
    void randomFilesMatchParquetJavasColumnWriters() throws IOException {
        long seed = TestSeed.announce(ChunkWriterTest.class);
        Random rnd = new Random(seed);
        ObjectStore store = new LocalObjectStore(dir);
        for (int iteration = 0; iteration < 10; iteration++) {
            String what = "seed " + seed + " iteration " + iteration;
            List<LogRecord> records = new ArrayList<>();
            if (rnd.nextInt(4) == 0) {
                records.addAll(TestFiles.edgeRecords());
            }
            boolean distinct = rnd.nextInt(3) == 0;
            // Dictionary fallback mid-chunk needs a first page (20,000 rows) of repeats, then many distinct values.
            int n = distinct ? 21_000 + rnd.nextInt(6000) : 1 + rnd.nextInt(4000);
            records.addAll(ColumnarRowsTest.records(rnd, n, distinct ? 20_500 : -1));
            // At least 500 rows a group: both writers hold every group's cap-sized bloom filters until the footer,
            // so hundreds of tiny groups would take gigabytes of heap without testing anything more.
            WriterOptions opts = WriterOptions.compacted(256L << 20).withExtras(TestFiles.extrasOfEveryType())
                    .withRowGroupRows(500 + rnd.nextInt(30_000)).withWriterThreads(1 + rnd.nextInt(2))
                    .withDictionaries(rnd.nextInt(5) != 0);
            writeBoth(store, opts, records);
            assertSameContent(store, records, what);
        }
    }

    @Test
    void duckDbReadsOurPagesLikeParquetJavas() throws Exception {
        Random rnd = new Random(3);
        ObjectStore store = new LocalObjectStore(dir);
        List<LogRecord> records = new ArrayList<>(ColumnarRowsTest.records(rnd, 26_000, 20_500));
        writeBoth(store, WriterOptions.compacted(256L << 20).withExtras(TestFiles.extrasOfEveryType())
                .withRowGroupRows(9_000), records);
        String query = "SELECT count(*), count(DISTINCT attributes), count(DISTINCT \"attr.http.route\"),"
                + " sum(octet_length(body)), sum(len(params)), sum(len(separators)), count(trace_id),"
                + " min(time_unix_nano), max(\"attr.count\"), sum(CAST(lossy_flag AS INT)), sum(x_int),"
                + " count(x_fixed), count(DISTINCT \"resource.service.name\"),"
                + " sum(hash(body, trace_id, span_id, params, separators, attributes, resource_attributes, confidence,"
                + " x_float, x_bin, scope_name, severity_text, template_id, flags))"
                + " FROM read_parquet(?)";
        Properties p = new Properties();
        p.setProperty("autoinstall_known_extensions", "false");
        p.setProperty("autoload_known_extensions", "false");
        try (var c = DriverManager.getConnection("jdbc:duckdb:", p)) {
            List<String> answers = new ArrayList<>();
            for (String file : List.of("ours.parquet", "theirs.parquet")) {
                try (var st = c.prepareStatement(query)) {
                    st.setString(1, dir.resolve(file).toString());
                    try (var rs = st.executeQuery()) {
                        assertTrue(rs.next());
                        StringBuilder row = new StringBuilder();
                        for (int i = 1; i <= 14; i++) {
                            row.append(rs.getString(i)).append('|');
                        }
                        answers.add(row.toString());
                    }
                }
            }
            assertEquals(answers.get(1), answers.get(0));
            assertTrue(answers.get(0).startsWith(records.size() + "|"), answers.get(0));
        }
    }

    private static void writeBoth(ObjectStore store, WriterOptions opts, List<LogRecord> records)
            throws IOException {
        for (boolean ours : new boolean[] {true, false}) {
            try (LogFileWriter w = new LogFileWriter(store.create(ours ? "ours.parquet" : "theirs.parquet"), opts,
                    UnaryOperator.identity(), ours)) {
                for (LogRecord r : records) {
                    w.write(r);
                }
                w.commit();
            }
        }
    }

    private static void assertSameContent(ObjectStore store, List<LogRecord> records, String what)
            throws IOException {
        for (String file : List.of("ours.parquet", "theirs.parquet")) {
            assertEquals(records, read(store, file, false), what + ": " + file + " by parquet-java's reader");
            assertEquals(records, read(store, file, true), what + ": " + file + " by our column decoding");
        }
        try (ParquetFileReader ours = open(store, "ours.parquet"); ParquetFileReader theirs = open(store,
                "theirs.parquet")) {
            List<BlockMetaData> a = ours.getFooter().getBlocks();
            List<BlockMetaData> b = theirs.getFooter().getBlocks();
            assertEquals(b.size(), a.size(), what + ": row groups");
            for (int g = 0; g < a.size(); g++) {
                assertEquals(b.get(g).getRowCount(), a.get(g).getRowCount(), what + ": rows of group " + g);
                for (int i = 0; i < a.get(g).getColumns().size(); i++) {
                    ColumnChunkMetaData x = a.get(g).getColumns().get(i);
                    ColumnChunkMetaData y = b.get(g).getColumns().get(i);
                    String where = what + ": group " + g + " column " + x.getPath();
                    assertTrue(OURS.containsAll(x.getEncodings()), where + " encodings " + x.getEncodings());
                    assertSameStatistics(y.getStatistics(), x.getStatistics(), where);
                    ColumnIndex theirIndex = theirs.readColumnIndex(y);
                    ColumnIndex ourIndex = ours.readColumnIndex(x);
                    assertEquals(theirIndex == null, ourIndex == null, where + ": column index present");
                    OffsetIndex offsets = ours.readOffsetIndex(x);
                    assertNotNull(offsets, where + ": offset index");
                    if (ourIndex != null) {
                        assertEquals(offsets.getPageCount(), ourIndex.getMinValues().size(), where + ": pages");
                    }
                }
            }
        }
    }

    private static void assertSameStatistics(Statistics<?> expected, Statistics<?> actual, String where) {
        assertEquals(expected.isEmpty(), actual.isEmpty(), where + ": statistics empty");
        if (expected.isEmpty()) {
            return;
        }
        assertEquals(expected.getNumNulls(), actual.getNumNulls(), where + ": nulls");
        assertEquals(expected.hasNonNullValue(), actual.hasNonNullValue(), where + ": has values");
        if (expected.hasNonNullValue()) {
            assertEquals(expected.minAsString(), actual.minAsString(), where + ": min");
            assertEquals(expected.maxAsString(), actual.maxAsString(), where + ": max");
        }
    }

    private static List<LogRecord> read(ObjectStore store, String key, boolean columnar) throws IOException {
        List<LogRecord> out = new ArrayList<>();
        try (LogFileReader r = columnar ? LogFileReader.open(store, key, ReadOptions.all())
                : ReaderTestAccess.openWithRecordReader(store, key, ReadOptions.all())) {
            assertEquals(columnar, ReaderTestAccess.decodesColumns(r));
            for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                out.add(rec);
            }
        }
        return out;
    }

    private static ParquetFileReader open(ObjectStore store, String key) throws IOException {
        return ParquetFileReader.open(new StoreInputFile(store.openRandomAccess(key), key));
    }
}
