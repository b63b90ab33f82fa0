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
            // Tests that decide let the reader keep rows untested; the rows returned must be the same.
            boolean decide = c.exact && rnd.nextBoolean();

            Prefilter seen = new Prefilter(c, decide);
            ReadOptions options = new ReadOptions(Optional.empty(), c.pushdown, Optional.of(seen));
            List<LogRecord> actual;
            try (LogFileReader r = LogFileReader.open(store, key, options)) {
                assertTrue(r.materializesLate(), what);
                actual = readAll(r);
            }
            assertEquals(expected, actual, what + ": " + c.name + (decide ? ", tests decide" : ""));
            assertTrue(seen.tested <= all.size(), what);
            assertEquals(0, seen.failedTests, what + ": " + c.name + ": rows failing a column test were tested");
            if (decide && c.tests.stream().allMatch(LateMaterializationTest::applicable)) {
                assertEquals(0, seen.passedTestsOnValues, what + ": " + c.name + ": rows the deciding tests keep "
                        + "were tested");
            }
            // A count: a run its one deciding test decides alone is summed, not decided row by row; the same count.
            try (LogFileReader r = LogFileReader.open(store, key, new ReadOptions(Optional.empty(), c.pushdown,
                    Optional.of(new Prefilter(c, decide))))) {
                assertEquals(expected.size(), r.countRest(), what + ": " + c.name + (decide ? ", tests decide" : "")
                        + ": count");
            }

            // Again through one cache: the later reads take the kept verdict and its groups' candidate rows (a
            // reader built without parquet-java's record filter), counts and row reads in turn.
            FooterCache cache = new FooterCache(FooterCache.DEFAULT_MAX_BYTES);
            for (int again = 0; again < 4; again++) {
                ReadOptions fresh = new ReadOptions(Optional.empty(), c.pushdown, Optional.of(new Prefilter(c, decide)));
                try (LogFileReader r = LogFileReader.open(store, key, fresh, cache)) {
                    if ((again + iteration) % 2 == 0) {
                        assertEquals(expected.size(), r.countRest(), what + ": " + c.name + ": kept count " + again);
                    } else {
                        assertEquals(expected, readAll(r), what + ": " + c.name + ": kept read " + again);
                    }
                }
            }

            // The record reader's path (files we cannot decode by columns) applies the prefilter to whole rows.
            Prefilter whole = new Prefilter(c, decide);
            try (LogFileReader r = LogFileReader.openWithRecordReader(store, key,
                    new ReadOptions(Optional.empty(), c.pushdown, Optional.of(whole)))) {
                assertEquals(expected, readAll(r), what + ": " + c.name + " through the record reader");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aRowFailingAGuardIsTestedWhateverItsColumnTestsSay(boolean testsDecide) throws IOException {
        long seed = printedSeed("guards seed");
        Random rnd = new Random(seed);
        ObjectStore store = new LocalObjectStore(dir);
        for (int iteration = 0; iteration < 8; iteration++) {
            String what = "seed " + seed + " iteration " + iteration;
            List<LogRecord> records = ColumnarRowsTest.records(rnd, 1 + rnd.nextInt(3000), -1);
            boolean compacted = rnd.nextBoolean();
            WriterOptions opts = (compacted ? WriterOptions.compacted(64 << 10) : WriterOptions.ingest())
                    .withExtras(TestFiles.extrasOfEveryType()).withRowGroupRows(100 + rnd.nextInt(2000));
            String key = "g" + iteration + ".parquet";
            write(store, key, opts, 10 + rnd.nextInt(500), compacted, records);
            List<LogRecord> all = readAll(LogFileReader.openWithRecordReader(store, key, ReadOptions.all()));
            long template = all.get(rnd.nextInt(all.size())).templateId();
            int ceiling = rnd.nextInt(25);
            // The test would "throw" (here: records the row) above the severity ceiling, which the guard states.
            List<Long> tested = new ArrayList<>();
            RowPrefilter guarded = new RowPrefilter() {
                @Override
                public Set<String> columns() {
                    return Set.of(Columns.TEMPLATE_ID, Columns.SEVERITY_NUMBER);
                }

                @Override
                public boolean test(LogRecord partial, long rowIndex) {
                    tested.add(rowIndex);
                    return partial.templateId() == template;
                }

                @Override
                public List<ColumnTest> columnTests() {
                    return List.of(new ColumnTest.LongRange(Columns.TEMPLATE_ID, template, template, template == 0));
                }

                @Override
                public List<ColumnTest> columnGuards() {
                    return List.of(new ColumnTest.LongRange(Columns.SEVERITY_NUMBER, 0, ceiling, false));
                }

                @Override
                public boolean columnTestsDecide() {
                    return testsDecide; // true: template_id is REQUIRED, so every row holds a value
                }
            };
            List<LogRecord> actual;
            try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all().withPrefilter(guarded))) {
                assertTrue(r.materializesLate(), what);
                actual = readAll(r);
            }
            assertEquals(all.stream().filter(x -> x.templateId() == template).toList(), actual, what);
            List<Long> expectedTested = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                if ((!testsDecide && all.get(i).templateId() == template) || all.get(i).severityNumber() > ceiling) {
                    expectedTested.add((long) i);
                }
            }
            assertEquals(expectedTested, tested, what + ": the rows tested are those above " + ceiling
                    + (testsDecide ? "" : " and those of the template"));
        }
    }

    /**
     * A time guard whose 0 stands for the observed time ({@link ColumnTest.LongRange#zeroFallback}): the rows tested
     * are exactly those whose effective time (time_unix_nano, or the observed time when it is 0) fails the guard,
     * and those of the template when the tests do not decide; every partial row tested carries the row's observed
     * time, and the rows returned and counted are those of the exact path.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aZeroTimeGuardFallsBackToTheObservedTimeAsTheExactPathDoes(boolean testsDecide) throws IOException {
        long seed = printedSeed("zero-time fallback seed");
        Random rnd = new Random(seed);
        ObjectStore store = new LocalObjectStore(dir);
        long hour = TestFiles.HOUR;
        long span = 3_600_000_000_000L;
        for (int iteration = 0; iteration < 12; iteration++) {
            String what = "seed " + seed + " iteration " + iteration;
            int zeroEvery = 1 + rnd.nextInt(40);
            long[] templates = {1 + rnd.nextInt(3), 1 + rnd.nextInt(3)};
            List<LogRecord> records = new ArrayList<>();
            int n = 1 + rnd.nextInt(3000);
            for (int i = 0; i < n; i++) {
                records.add(TestFiles.random(rnd, "svc" + rnd.nextInt(3), b -> {
                    b.templateId(templates[rnd.nextInt(2)]);
                    if (rnd.nextInt(zeroEvery) == 0) {
                        b.timeUnixNano(0);
                        int kind = rnd.nextInt(5);
                        b.observedTimeUnixNano(kind == 0 ? null : kind == 1 ? 0L : kind == 2
                                ? hour + span + rnd.nextInt(1000) : hour + rnd.nextLong(span));
                    }
                }));
            }
            if (rnd.nextBoolean()) { // sorted as a compaction sorts: the zero-time rows among the others
                records.sort(Comparator.comparingLong(LogRecord::effectiveTime));
            }
            boolean compacted = rnd.nextBoolean();
            WriterOptions opts = (compacted ? WriterOptions.compacted(64 << 10) : WriterOptions.ingest())
                    .withRowGroupRows(100 + rnd.nextInt(2000));
            String key = "z" + iteration + ".parquet";
            write(store, key, opts, 10 + rnd.nextInt(500), compacted, records);
            List<LogRecord> all = readAll(LogFileReader.openWithRecordReader(store, key, ReadOptions.all()));
            long template = templates[0];
            long lo = hour + (rnd.nextBoolean() ? 0 : rnd.nextLong(span / 2));
            long hi = hour + span - 1 - (rnd.nextBoolean() ? 0 : rnd.nextLong(span / 2));
            List<Long> tested = new ArrayList<>();
            List<String> wrongPartials = new ArrayList<>();
            RowPrefilter guarded = new RowPrefilter() {
                @Override
                public Set<String> columns() {
                    return Set.of(Columns.TEMPLATE_ID, Columns.TIME, Columns.OBSERVED_TIME);
                }

                @Override
                public boolean test(LogRecord partial, long rowIndex) {
                    tested.add(rowIndex);
                    LogRecord row = all.get((int) rowIndex);
                    if (partial.effectiveTime() != row.effectiveTime()) {
                        wrongPartials.add(rowIndex + ": " + partial.effectiveTime() + " != " + row.effectiveTime());
                    }
                    return partial.templateId() == template;
                }

                @Override
                public List<ColumnTest> columnTests() {
                    return List.of(new ColumnTest.LongRange(Columns.TEMPLATE_ID, template, template, false));
                }

                @Override
                public List<ColumnTest> columnGuards() {
                    return List.of(new ColumnTest.LongRange(Columns.TIME, lo, hi, false, false,
                            Columns.OBSERVED_TIME));
                }

                @Override
                public boolean columnTestsDecide() {
                    return testsDecide;
                }
            };
            List<LogRecord> expected = all.stream().filter(x -> x.templateId() == template).toList();
            try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all().withPrefilter(guarded))) {
                assertTrue(r.materializesLate(), what);
                assertEquals(expected, readAll(r), what);
            }
            List<Long> expectedTested = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                long t = all.get(i).effectiveTime();
                if ((!testsDecide && all.get(i).templateId() == template) || t < lo || t > hi) {
                    expectedTested.add((long) i);
                }
            }
            assertEquals(expectedTested, tested, what + ": the rows tested are those outside [" + lo + ", " + hi
                    + "]" + (testsDecide ? "" : " and those of the template"));
            assertEquals(List.of(), wrongPartials, what + ": partial rows with another effective time");

            tested.clear();
            try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all().withPrefilter(guarded))) {
                assertEquals(expected.size(), r.countRest(), what + ": count");
            }
            assertEquals(expectedTested, tested, what + ": the rows a count tests");
            assertEquals(List.of(), wrongPartials, what + ": partial rows a count tested");
        }
    }

    @Test
    void aCountWhoseTestsDecideTestsNoRowTheyKeep() throws IOException {
        ObjectStore store = new LocalObjectStore(dir);
        List<LogRecord> records = ColumnarRowsTest.records(new Random(13), 3000, -1);
        write(store, "c.parquet", compacted(), 300, true, records);
        int floor = 12;
        long expected = records.stream().filter(r -> r.severityNumber() >= floor).count();
        for (int decide = 0; decide < 2; decide++) {
            // The body and the params are among the prefilter's columns, as a query's other columns are: a row the
            // tests keep needs neither, so no partial row is decoded when the tests decide.
            Case c = new Case("severity >= " + floor, Set.of(Columns.SEVERITY_NUMBER, Columns.BODY, Columns.PARAMS),
                    r -> r.severityNumber() >= floor, Optional.empty(),
                    List.of(new ColumnTest.LongRange(Columns.SEVERITY_NUMBER, floor, Long.MAX_VALUE, false)));
            Prefilter p = new Prefilter(c, decide == 1);
            try (LogFileReader r = LogFileReader.open(store, "c.parquet", ReadOptions.all().withPrefilter(p))) {
                assertEquals(expected, r.countRest(), "decide " + decide);
            }
            assertEquals(decide == 1 ? 0 : expected, p.tested, "rows tested, decide " + decide);
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
                    ReadOptions.all().withPrefilter(new Prefilter(c, false)))) {
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
                r -> r.severityNumber() >= 17, Optional.empty()), false);
        LogFormatException e = assertThrows(LogFormatException.class, () -> readAll(
                LogFileReader.open(store, "g.parquet", ReadOptions.all().withPrefilter(errors))));
        assertTrue(e.getMessage().contains(store.describe("g.parquet")), e.getMessage());
    }

    private static WriterOptions compacted() {
        return WriterOptions.compacted(64 << 10).withExtras(TestFiles.extrasOfEveryType());
    }

    /** A fresh seed, printed with what it seeds so a failure can be replayed. */
    private static long printedSeed(String what) {
        long seed = System.nanoTime();
        System.out.println("LateMaterializationTest " + what + " " + seed);
        return seed;
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

    /**
     * A predicate on a few columns, (maybe) a weaker-or-equal filter2 predicate for pruning, column tests, and
     * whether the tests are sufficient on values as well as necessary ({@link RowPrefilter#columnTestsDecide}).
     */
    private record Case(String name, Set<String> columns, Predicate<LogRecord> accepts,
            Optional<FilterPredicate> pushdown, List<ColumnTest> tests, boolean exact) {
        Case(String name, Set<String> columns, Predicate<LogRecord> accepts, Optional<FilterPredicate> pushdown) {
            this(name, columns, accepts, pushdown, List.of(), false);
        }

        /** Tests that are exact when there is at least one. */
        Case(String name, Set<String> columns, Predicate<LogRecord> accepts, Optional<FilterPredicate> pushdown,
                List<ColumnTest> tests) {
            this(name, columns, accepts, pushdown, tests, !tests.isEmpty());
        }
    }

    private static Case randomCase(Random rnd, List<LogRecord> rows) {
        LogRecord probe = rows.get(rnd.nextInt(rows.size()));
        return switch (rnd.nextInt(7)) {
            case 0 -> {
                int min = 1 + rnd.nextInt(24);
                yield new Case("severity >= " + min, Set.of(Columns.SEVERITY_NUMBER), r -> r.severityNumber() >= min,
                        maybe(rnd, FilterApi.gtEq(FilterApi.intColumn(Columns.SEVERITY_NUMBER), min)),
                        maybeTests(rnd, new ColumnTest.LongRange(Columns.SEVERITY_NUMBER, min, Long.MAX_VALUE, false)));
            }
            case 1 -> {
                long from = probe.effectiveTime();
                long to = from + rnd.nextLong(1 + 600_000_000_000L);
                yield new Case("effective time in [" + from + ", " + to + ")", Set.of(Columns.EFFECTIVE_TIME),
                        r -> r.effectiveTimeUnixNano() >= from && r.effectiveTimeUnixNano() < to,
                        maybe(rnd, FilterApi.and(FilterApi.gtEq(FilterApi.longColumn(Columns.EFFECTIVE_TIME), from),
                                FilterApi.lt(FilterApi.longColumn(Columns.EFFECTIVE_TIME), to))),
                        to > from ? maybeTests(rnd, new ColumnTest.LongRange(Columns.EFFECTIVE_TIME, from, to - 1, false))
                                : List.of());
            }
            case 2 -> {
                byte[] trace = probe.traceId();
                yield new Case("trace id", Set.of(Columns.TRACE_ID), r -> Arrays.equals(trace, r.traceId()),
                        trace == null ? Optional.empty()
                                : maybe(rnd, FilterApi.eq(FilterApi.binaryColumn(Columns.TRACE_ID),
                                        Binary.fromConstantByteArray(trace))),
                        trace == null ? List.of()
                                : maybeTests(rnd, new ColumnTest.BytesEqual(Columns.TRACE_ID, trace, false)));
            }
            case 3 -> {
                // Two tests on two columns, a dictionary-encoded string among them (null passes: the predicate
                // accepts rows without a service too).
                long template = probe.templateId();
                String service = probe.serviceName();
                byte[] utf8 = service == null ? new byte[0] : service.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                yield new Case("template " + template + " and service " + service + " or none",
                        Set.of(Columns.TEMPLATE_ID, Columns.SERVICE_NAME),
                        r -> r.templateId() == template && (r.serviceName() == null || r.serviceName().equals(service)),
                        Optional.empty(),
                        List.of(new ColumnTest.LongRange(Columns.TEMPLATE_ID, template, template, template == 0),
                                new ColumnTest.BytesEqual(Columns.SERVICE_NAME, utf8, true)),
                        service != null); // without a service the test's empty bytes would pass an empty service
            }
            case 4 -> {
                // Tests a reader cannot apply (a type they do not read, a column outside the file) are skipped.
                int min = rnd.nextInt(25);
                // No row passes an empty range, so they decide, vacuously; a reader that cannot apply them must not.
                yield new Case("severity >= " + min + " with inapplicable tests", Set.of(Columns.SEVERITY_NUMBER),
                        r -> r.severityNumber() >= min, Optional.empty(),
                        List.of(new ColumnTest.BytesEqual(Columns.SEVERITY_NUMBER, new byte[] {1}, false),
                                new ColumnTest.LongRange("no_such_column", 1, 0, false)));
            }
            case 5 -> {
                // A null passes the test but the predicate decides it on another column: rows without a trace id
                // must be tested even when the tests decide.
                byte[] trace = rows.stream().map(LogRecord::traceId).filter(java.util.Objects::nonNull).findFirst()
                        .orElse(new byte[16]);
                int min = rnd.nextInt(25);
                yield new Case("trace id, or none and severity >= " + min,
                        Set.of(Columns.TRACE_ID, Columns.SEVERITY_NUMBER),
                        r -> r.traceId() == null ? r.severityNumber() >= min : Arrays.equals(trace, r.traceId()),
                        Optional.empty(), List.of(new ColumnTest.BytesEqual(Columns.TRACE_ID, trace, true)));
            }
            default -> {
                // Two columns, one of them repeated (params), and no pushdown: every row is a candidate.
                int min = rnd.nextInt(25);
                yield new Case("severity >= " + min + " and a param", Set.of(Columns.SEVERITY_NUMBER, Columns.PARAMS),
                        r -> r.severityNumber() >= min && !r.params().isEmpty(), Optional.empty());
            }
        };
    }

    private static List<ColumnTest> maybeTests(Random rnd, ColumnTest t) {
        return rnd.nextInt(4) == 0 ? List.of() : List.of(t);
    }

    /** Whether a reader applies the test (the tests this class builds). */
    private static boolean applicable(ColumnTest t) {
        return !t.column().equals("no_such_column") && !(t instanceof ColumnTest.BytesEqual
                && t.column().equals(Columns.SEVERITY_NUMBER));
    }

    /** The row's value in the test's column is not null (the tests this class builds). */
    private static boolean hasValue(ColumnTest t, LogRecord r) {
        return switch (t.column()) {
            case Columns.TRACE_ID -> r.traceId() != null;
            case Columns.SERVICE_NAME -> r.serviceName() != null;
            case Columns.EFFECTIVE_TIME -> r.effectiveTimeUnixNano() != null;
            default -> true; // severity_number and template_id read as 0 when null
        };
    }

    /** Whether the row's value passes the test, decided on the decoded record (the tests this class builds). */
    private static boolean holds(ColumnTest t, LogRecord r) {
        if (!applicable(t)) {
            return true; // never applied
        }
        if (t instanceof ColumnTest.BytesEqual b) {
            byte[] v = switch (t.column()) {
                case Columns.TRACE_ID -> r.traceId();
                case Columns.SERVICE_NAME -> r.serviceName() == null ? null
                        : r.serviceName().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                default -> throw new IllegalArgumentException(t.column());
            };
            return v == null ? b.nullPasses() : Arrays.equals(v, b.value());
        }
        ColumnTest.LongRange l = (ColumnTest.LongRange) t;
        Long v = switch (t.column()) {
            case Columns.SEVERITY_NUMBER -> (long) r.severityNumber();
            case Columns.TEMPLATE_ID -> r.templateId();
            case Columns.EFFECTIVE_TIME -> r.effectiveTimeUnixNano();
            default -> throw new IllegalArgumentException(t.column());
        };
        return v == null ? l.nullPasses() : v >= l.min() && v <= l.max();
    }

    private static Optional<FilterPredicate> maybe(Random rnd, FilterPredicate p) {
        return rnd.nextInt(4) == 0 ? Optional.empty() : Optional.of(p);
    }

    /** The case's predicate as a prefilter; checks rows come in file order and partial rows hold only its columns. */
    private static final class Prefilter implements RowPrefilter {
        private final Case c;
        private final boolean decide;
        long tested;
        /** Rows tested that fail a column test: none when the reader applies them. */
        long failedTests;
        /** Rows tested that pass every column test on values: none when deciding tests are applied. */
        long passedTestsOnValues;
        private long last = -1;

        Prefilter(Case c, boolean decide) {
            this.c = c;
            this.decide = decide;
        }

        @Override
        public boolean columnTestsDecide() {
            return decide;
        }

        @Override
        public Set<String> columns() {
            return c.columns;
        }

        @Override
        public List<ColumnTest> columnTests() {
            return c.tests;
        }

        @Override
        public boolean test(LogRecord partial, long rowIndex) {
            assertTrue(rowIndex > last, "rows in file order: " + rowIndex + " after " + last);
            last = rowIndex;
            tested++;
            if (c.tests.stream().anyMatch(t -> !holds(t, partial))) {
                failedTests++;
            } else if (c.tests.stream().allMatch(t -> hasValue(t, partial))) {
                passedTestsOnValues++;
            }
            return c.accepts.test(partial);
        }
    }
}
