package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.parquet.write.WriterTestAccess;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.testkit.TestSeed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sparse reads ({@link ColumnCursor}'s windowed pages): a read that seeks to scattered rows (a prefilter keeping
 * random runs and single rows, column tests read in runs) returns exactly the rows, whole, that a full decode by
 * parquet-java's record reader holds at those positions, and the prefilter sees its columns' values as they are;
 * on seeded random files of many small pages from every writer path (our page encoder, parquet-java's V1 pages,
 * V2 pages with RLE booleans), with and without dictionaries.
 */
class SparseReadTest {
    @TempDir
    Path dir;

    private static final List<Set<String>> PROBES = List.of(Set.of(Columns.TENANT_ID),
            Set.of(Columns.SEVERITY_NUMBER, Columns.TRACE_ID), Set.of(Columns.EFFECTIVE_TIME, Columns.SERVICE_NAME,
                    Columns.BODY), Set.of(Columns.SEVERITY_NUMBER, Columns.PARAMS, Columns.LOSSY_FLAG));

    @Test
    void scatteredRowsReadLikeAFullDecode() throws IOException {
        long seed = TestSeed.announce(SparseReadTest.class);
        Random rnd = new Random(seed);
        ObjectStore store = new LocalObjectStore(dir);
        for (int iteration = 0; iteration < 20; iteration++) {
            String what = "seed " + seed + " iteration " + iteration;
            List<LogRecord> records = ColumnarRowsTest.records(rnd, 1 + rnd.nextInt(5000),
                    rnd.nextInt(4) == 0 ? rnd.nextInt(2000) : -1);
            String key = "s" + iteration + ".parquet";
            int writer = rnd.nextInt(3);
            WriterOptions opts = (writer == 0 ? WriterOptions.compacted(64 << 10) : WriterOptions.ingest())
                    .withExtras(TestFiles.extrasOfEveryType()).withRowGroupRows(200 + rnd.nextInt(5000))
                    .withDictionaries(rnd.nextInt(4) != 0);
            int pageRows = 5 + rnd.nextInt(300);
            UnaryOperator<ParquetProperties.Builder> pages = b -> {
                b.withPageRowCountLimit(pageRows).withPageSize(1024 + rnd.nextInt(16 << 10));
                return writer == 2 ? b.withWriterVersion(WriterVersion.PARQUET_2_0)
                        .withValuesWriterFactory(new ColumnarRowsTest.V1EncodingsRleBooleans()) : b;
            };
            try (LogFileWriter w = WriterTestAccess.writer(store.create(key), opts, pages, writer == 0)) {
                for (LogRecord r : records) {
                    w.write(r);
                }
                w.commit();
            }
            List<LogRecord> all = new ArrayList<>();
            try (LogFileReader r = LogFileReader.openWithRecordReader(store, key, ReadOptions.all())) {
                for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                    all.add(rec);
                }
            }
            assertEquals(records.size(), all.size(), what);

            BitSet kept = keptRows(rnd, all.size());
            Set<String> columns = PROBES.get(rnd.nextInt(PROBES.size()));
            // A column test on the severity, read in runs, makes the probe's pages windowed from run to run.
            int floor = columns.contains(Columns.SEVERITY_NUMBER) && rnd.nextBoolean() ? rnd.nextInt(25) : 0;
            List<ColumnTest> tests = floor > 0
                    ? List.of(new ColumnTest.LongRange(Columns.SEVERITY_NUMBER, floor, Long.MAX_VALUE, false))
                    : List.of();
            Checking prefilter = new Checking(all, kept, columns, tests, floor, what);
            List<LogRecord> expected = new ArrayList<>();
            List<Long> expectedIndexes = new ArrayList<>();
            for (int i = kept.nextSetBit(0); i >= 0; i = kept.nextSetBit(i + 1)) {
                if (all.get(i).severityNumber() >= floor) {
                    expected.add(all.get(i));
                    expectedIndexes.add((long) i);
                }
            }
            List<LogRecord> actual = new ArrayList<>();
            List<Long> indexes = new ArrayList<>();
            try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all().withPrefilter(prefilter))) {
                assertTrue(r.decodesColumns() && r.materializesLate(), what);
                for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                    actual.add(rec);
                    indexes.add(r.rowIndex());
                }
            }
            String shape = what + " (writer " + writer + ", pages of " + pageRows + " rows, probe " + columns
                    + ", severity >= " + floor + ", " + kept.cardinality() + " of " + all.size() + " rows kept)";
            assertEquals(expectedIndexes, indexes, shape + ": row positions");
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i), actual.get(i), shape + ": row " + expectedIndexes.get(i));
            }
            try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all().withPrefilter(
                    new Checking(all, kept, columns, tests, floor, what)))) {
                assertEquals(expected.size(), r.countRest(), shape + ": count");
            }
        }
    }

    /** Random rows: runs of neighbours and single rows, from none to most of the file. */
    private static BitSet keptRows(Random rnd, int rows) {
        BitSet kept = new BitSet(rows);
        int picks = switch (rnd.nextInt(4)) {
            case 0 -> 1;
            case 1 -> 1 + rnd.nextInt(5);
            case 2 -> 1 + rnd.nextInt(50);
            default -> 1 + rnd.nextInt(Math.max(1, rows / 4));
        };
        for (int i = 0; i < picks; i++) {
            int from = rnd.nextInt(rows);
            int length = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(200) : 1;
            kept.set(from, Math.min(rows, from + length));
        }
        return kept;
    }

    /**
     * Keeps the rows of {@code kept} whose severity is at least {@code floor}, checking that each partial row holds
     * its columns' values as the full decode has them.
     */
    private static final class Checking implements RowPrefilter {
        private final List<LogRecord> all;
        private final BitSet kept;
        private final Set<String> columns;
        private final List<ColumnTest> tests;
        private final int floor;
        private final String what;

        Checking(List<LogRecord> all, BitSet kept, Set<String> columns, List<ColumnTest> tests, int floor,
                String what) {
            this.all = all;
            this.kept = kept;
            this.columns = columns;
            this.tests = tests;
            this.floor = floor;
            this.what = what;
        }

        @Override
        public Set<String> columns() {
            return columns;
        }

        @Override
        public List<ColumnTest> columnTests() {
            return tests;
        }

        @Override
        public boolean test(LogRecord partial, long rowIndex) {
            LogRecord whole = all.get((int) rowIndex);
            String at = what + ": row " + rowIndex + " as the prefilter sees it";
            for (String c : columns) {
                switch (c) {
                    case Columns.TENANT_ID -> assertEquals(whole.tenantId(), partial.tenantId(), at);
                    case Columns.SEVERITY_NUMBER -> assertEquals(whole.severityNumber(), partial.severityNumber(), at);
                    case Columns.TRACE_ID -> assertArrayEquals(whole.traceId(), partial.traceId(), at);
                    case Columns.EFFECTIVE_TIME -> assertEquals(whole.effectiveTimeUnixNano(),
                            partial.effectiveTimeUnixNano(), at);
                    case Columns.SERVICE_NAME -> assertEquals(whole.serviceName(), partial.serviceName(), at);
                    case Columns.BODY -> assertArrayEquals(whole.body(), partial.body(), at);
                    case Columns.PARAMS -> assertEquals(whole.params(), partial.params(), at);
                    case Columns.LOSSY_FLAG -> assertEquals(whole.lossyFlag(), partial.lossyFlag(), at);
                    default -> throw new IllegalStateException(c);
                }
            }
            assertTrue(Objects.equals(whole.tenantId(), all.get(0).tenantId()), at);
            return kept.get((int) rowIndex) && partial.severityNumber() >= floor;
        }
    }
}
