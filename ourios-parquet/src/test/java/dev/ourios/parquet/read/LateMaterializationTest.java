package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.LogFormatException;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.parquet.write.WriterTestAccess;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.testkit.Testdata;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Late materialization ({@link RowPrefilter}): a read with a prefilter (and a filter2 predicate that prunes row
 * groups and pages) must return exactly the rows of the file the predicate accepts, whole, in file order, as an
 * unfiltered read by parquet-java's record reader followed by the same predicate does; the prefilter sees every
 * candidate row once, in file order, with only its columns decoded.
 */
class LateMaterializationTest {
    @TempDir
    Path dir;

    @Test
    void prefilteredReadsReturnTheRowsThePredicateAccepts() throws IOException {
        long seed = System.nanoTime();
        System.out.println("LateMaterializationTest seed " + seed);
        Random rnd = new Random(seed);
        ObjectStore store = new LocalObjectStore(dir);
        for (int iteration = 0; iteration < 24; iteration++) {
            String what = "seed " + seed + " iteration " + iteration;
            List<LogRecord> records = ColumnarRowsTest.records(rnd, 1 + rnd.nextInt(4000), -1);
            if (rnd.nextBoolean()) { // sorted by time: the column index can leave pages out
                records.sort(Comparator.comparingLong(LogRecord::effectiveTime));
            }
            boolean compacted = rnd.nextBoolean(); // our page encoder, else parquet-java's column writers
            WriterOptions opts = (compacted ? WriterOptions.compacted(64 << 10) : WriterOptions.ingest())
                    .withExtras(TestFiles.extrasOfEveryType())
                    .withRowGroupRows(100 + rnd.nextInt(2000));
            int pageRows = 10 + rnd.nextInt(500);
            String key = "f" + iteration + ".parquet";
            write(store, key, opts, pageRows, compacted, records);
            List<LogRecord> all = readAll(LogFileReader.openWithRecordReader(store, key, ReadOptions.all()));
            assertEquals(records.size(), all.size(), what);
            Case c = randomCase(rnd, all);
            List<LogRecord> expected = all.stream().filter(c.accepts).toList();

            Prefilter seen = new Prefilter(c);
            ReadOptions options = new ReadOptions(Optional.empty(), c.pushdown, Optional.of(seen));
            List<LogRecord> actual;
            try (LogFileReader r = LogFileReader.open(store, key, options)) {
                assertTrue(r.materializesLate(), what);
                actual = readAll(r);
            }
            assertEquals(expected, actual, what + ": " + c.name);
            assertTrue(seen.tested <= all.size(), what);

            // The record reader's path (files we cannot decode by columns) applies the prefilter to whole rows.
            Prefilter whole = new Prefilter(c);
            try (LogFileReader r = LogFileReader.openWithRecordReader(store, key,
                    new ReadOptions(Optional.empty(), c.pushdown, Optional.of(whole)))) {
                assertEquals(expected, readAll(r), what + ": " + c.name + " through the record reader");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rfc0021-pre-upgrade.parquet", "rfc0022-pre-amendment.parquet",
            "rfc0025-pre-amendment.parquet"})
    void referenceWriterFilesAreReadLateLikeWhole(String name) throws IOException {
        ObjectStore store = new LocalObjectStore(Testdata.dir("reference-writer"));
        List<LogRecord> all = readAll(LogFileReader.openWithRecordReader(store, name, ReadOptions.all()));
        for (int min = 0; min <= 24; min += 4) {
            int floor = min;
            Case c = new Case("severity >= " + floor, Set.of(Columns.SEVERITY_NUMBER),
                    r -> r.severityNumber() >= floor, Optional.empty());
            try (LogFileReader r = LogFileReader.open(store, name,
                    ReadOptions.all().withPrefilter(new Prefilter(c)))) {
                assertTrue(r.materializesLate(), name);
                assertEquals(all.stream().filter(c.accepts).toList(), readAll(r), name + ": " + c.name);
            }
        }
    }

    @Test
    void aFailingPrefilterFailsTheRead() throws IOException {
        ObjectStore store = new LocalObjectStore(dir);
        List<LogRecord> records = ColumnarRowsTest.records(new Random(3), 500, -1);
        write(store, "f.parquet", compacted(), 50, true, records);
        RowPrefilter failing = new RowPrefilter() {
            @Override
            public Set<String> columns() {
                return Set.of(Columns.TENANT_ID);
            }

            @Override
            public boolean test(LogRecord partial, long rowIndex) throws IOException {
                if (rowIndex == 321) {
                    throw new IOException("row 321 is refused");
                }
                return true;
            }
        };
        try (LogFileReader r = LogFileReader.open(store, "f.parquet", ReadOptions.all().withPrefilter(failing))) {
            IOException e = assertThrows(IOException.class, () -> readAll(r));
            assertEquals("row 321 is refused", e.getMessage());
        }
    }

    @Test
    void garbledPagesFailTheReadNamingTheFile() throws IOException {
        ObjectStore store = new LocalObjectStore(dir);
        List<LogRecord> records = ColumnarRowsTest.records(new Random(5), 500, -1);
        write(store, "g.parquet", compacted(), 50, true, records);
        // Everything between the magic and the footer (pages, indexes, bloom filters) overwritten; the footer intact.
        Path file = dir.resolve("g.parquet");
        byte[] bytes = Files.readAllBytes(file);
        int footer = ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        byte[] junk = new byte[bytes.length - 8 - footer - 4];
        new Random(6).nextBytes(junk);
        System.arraycopy(junk, 0, bytes, 4, junk.length);
        Files.write(file, bytes);
        RowPrefilter errors = new Prefilter(new Case("severity >= 17", Set.of(Columns.SEVERITY_NUMBER),
                r -> r.severityNumber() >= 17, Optional.empty()));
        LogFormatException e = assertThrows(LogFormatException.class, () -> readAll(
                LogFileReader.open(store, "g.parquet", ReadOptions.all().withPrefilter(errors))));
        assertTrue(e.getMessage().contains(store.describe("g.parquet")), e.getMessage());
    }

    private static WriterOptions compacted() {
        return WriterOptions.compacted(64 << 10).withExtras(TestFiles.extrasOfEveryType());
    }

    /** Writes {@code records} with pages of at most {@code pageRows} rows, our page encoder or parquet-java's. */
    private static void write(ObjectStore store, String key, WriterOptions opts, int pageRows, boolean ownPages,
            List<LogRecord> records) throws IOException {
        try (LogFileWriter w = WriterTestAccess.writer(store.create(key), opts,
                b -> b.withPageRowCountLimit(pageRows).withPageSize(4096), ownPages)) {
            for (LogRecord r : records) {
                w.write(r);
            }
            w.commit();
        }
    }

    private static List<LogRecord> readAll(LogFileReader r) throws IOException {
        try (r) {
            List<LogRecord> out = new ArrayList<>();
            for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                out.add(rec);
            }
            return out;
        }
    }

    /** A predicate on a few columns, and (maybe) a weaker-or-equal filter2 predicate for pruning. */
    private record Case(String name, Set<String> columns, Predicate<LogRecord> accepts,
            Optional<FilterPredicate> pushdown) {
    }

    private static Case randomCase(Random rnd, List<LogRecord> rows) {
        LogRecord probe = rows.get(rnd.nextInt(rows.size()));
        return switch (rnd.nextInt(4)) {
            case 0 -> {
                int min = 1 + rnd.nextInt(24);
                yield new Case("severity >= " + min, Set.of(Columns.SEVERITY_NUMBER), r -> r.severityNumber() >= min,
                        maybe(rnd, FilterApi.gtEq(FilterApi.intColumn(Columns.SEVERITY_NUMBER), min)));
            }
            case 1 -> {
                long from = probe.effectiveTime();
                long to = from + rnd.nextLong(1 + 600_000_000_000L);
                yield new Case("effective time in [" + from + ", " + to + ")", Set.of(Columns.EFFECTIVE_TIME),
                        r -> r.effectiveTimeUnixNano() >= from && r.effectiveTimeUnixNano() < to,
                        maybe(rnd, FilterApi.and(FilterApi.gtEq(FilterApi.longColumn(Columns.EFFECTIVE_TIME), from),
                                FilterApi.lt(FilterApi.longColumn(Columns.EFFECTIVE_TIME), to))));
            }
            case 2 -> {
                byte[] trace = probe.traceId();
                yield new Case("trace id", Set.of(Columns.TRACE_ID), r -> Arrays.equals(trace, r.traceId()),
                        trace == null ? Optional.empty()
                                : maybe(rnd, FilterApi.eq(FilterApi.binaryColumn(Columns.TRACE_ID),
                                        Binary.fromConstantByteArray(trace))));
            }
            default -> {
                // Two columns, one of them repeated (params), and no pushdown: every row is a candidate.
                int min = rnd.nextInt(25);
                yield new Case("severity >= " + min + " and a param", Set.of(Columns.SEVERITY_NUMBER, Columns.PARAMS),
                        r -> r.severityNumber() >= min && !r.params().isEmpty(), Optional.empty());
            }
        };
    }

    private static Optional<FilterPredicate> maybe(Random rnd, FilterPredicate p) {
        return rnd.nextInt(4) == 0 ? Optional.empty() : Optional.of(p);
    }

    /** The case's predicate as a prefilter; checks rows come in file order and partial rows hold only its columns. */
    private static final class Prefilter implements RowPrefilter {
        private final Case c;
        long tested;
        private long last = -1;

        Prefilter(Case c) {
            this.c = c;
        }

        @Override
        public Set<String> columns() {
            return c.columns;
        }

        @Override
        public boolean test(LogRecord partial, long rowIndex) {
            assertTrue(rowIndex > last, "rows in file order: " + rowIndex + " after " + last);
            last = rowIndex;
            tested++;
            return c.accepts.test(partial);
        }
    }
}
