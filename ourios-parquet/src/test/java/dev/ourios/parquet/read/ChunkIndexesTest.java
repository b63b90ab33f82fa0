package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-chunk entries of {@link FooterCache} ({@link ChunkIndexes}): filtered reads through the cache return
 * exactly the rows of reads without it; once a file was read, its column indexes, offset indexes and bloom filters
 * are not fetched again; the entries stay within their bound; readers on several threads share them; a file
 * replaced under its name by other bytes (another length) is never read with the old file's entries.
 */
class ChunkIndexesTest {
    @TempDir
    Path dir;

    /** Filtered reads of random files: by trace id (present and absent: bloom filters), service (dictionaries). */
    private record Case(String key, FilterPredicate filter) {
    }

    private static final class Files {
        final List<String> keys = new ArrayList<>();
        final List<Case> cases = new ArrayList<>();
    }

    private Files write(ObjectStore store, Random rnd, int files) throws IOException {
        Files out = new Files();
        for (int f = 0; f < files; f++) {
            String key = "f" + f + ".parquet";
            WriterOptions opts = (f % 2 == 0 ? WriterOptions.ingest() : WriterOptions.compacted(64 << 10))
                    .withExtras(TestFiles.extrasOfEveryType()).withRowGroupRows(50 + rnd.nextInt(300));
            List<LogRecord> rows = ColumnarRowsTest.records(rnd, 200 + rnd.nextInt(1200), -1);
            TestFiles.write(store, key, opts, rows);
            out.keys.add(key);
            for (int q = 0; q < 3; q++) {
                LogRecord row = rows.get(rnd.nextInt(rows.size()));
                byte[] trace = row.traceId() != null ? row.traceId() : TestFiles.bytes(rnd, 16);
                out.cases.add(new Case(key, FilterApi.eq(FilterApi.binaryColumn(Columns.TRACE_ID),
                        Binary.fromConstantByteArray(trace))));
            }
            out.cases.add(new Case(key, FilterApi.eq(FilterApi.binaryColumn(Columns.TRACE_ID),
                    Binary.fromConstantByteArray(TestFiles.bytes(rnd, 16)))));
            out.cases.add(new Case(key, FilterApi.eq(FilterColumns.binary(Columns.SERVICE_NAME),
                    Binary.fromString("svc" + rnd.nextInt(7)))));
            out.cases.add(new Case(key, FilterApi.and(FilterApi.gtEq(FilterApi.intColumn(Columns.SEVERITY_NUMBER),
                    rnd.nextInt(25)), FilterApi.eq(FilterColumns.binary(Columns.SERVICE_NAME),
                    Binary.fromString("svc" + rnd.nextInt(5))))));
        }
        return out;
    }

    @Test
    void readsThroughTheCacheEqualReadsWithoutAndFetchNoIndexTwice() throws IOException {
        ObjectStore plain = new LocalObjectStore(dir);
        RecordingStore store = new RecordingStore(plain);
        Seeded t = seeded("reads", store, 4);
        long seed = t.seed;
        Files files = t.files;
        FooterCache cache = new FooterCache(FooterCache.DEFAULT_MAX_BYTES);
        Set<String> indexOffsets = new HashSet<>(); // "key@offset"
        for (String key : files.keys) {
            indexOffsets(plain, key).forEach(o -> indexOffsets.add(key + "@" + o));
        }
        assertTrue(!indexOffsets.isEmpty(), "seed " + seed + ": the files have no indexes or bloom filters");
        for (int round = 0; round < 2; round++) {
            store.starts.clear();
            for (Case c : files.cases) {
                String what = "seed " + seed + " round " + round + " " + c;
                assertEquals(TestFiles.readAll(plain, c.key, ReadOptions.filtered(c.filter)),
                        read(store, c, cache), what);
            }
            if (round == 0) {
                assertTrue(store.starts.stream().anyMatch(indexOffsets::contains),
                        "seed " + seed + ": the first round read no index (the test reads nothing it could keep)");
            } else {
                for (String start : store.starts) {
                    assertTrue(!indexOffsets.contains(start), "seed " + seed + ": an index or bloom filter at "
                            + start + " was fetched again");
                }
            }
        }
        assertTrue(cache.chunkBytes() > 0 && cache.chunkBytes() <= cache.maxBytes(), "seed " + seed);
    }

    /** A seeded test's random source and files, its seed printed. */
    private record Seeded(long seed, Random rnd, ObjectStore store, Files files) {
    }

    private Seeded seeded(String test, ObjectStore store, int files) throws IOException {
        long seed = System.nanoTime();
        System.out.println("ChunkIndexesTest " + test + " seed " + seed);
        Random rnd = new Random(seed);
        return new Seeded(seed, rnd, store, write(store, rnd, files));
    }

    @Test
    void aSmallBoundIsNeverExceededAndReadsStayExact() throws IOException {
        Seeded t = seeded("bound", new LocalObjectStore(dir), 4);
        long max = 4_000 + t.rnd.nextInt(40_000);
        FooterCache cache = new FooterCache(max);
        for (int i = 0; i < 60; i++) {
            Case c = t.files.cases.get(t.rnd.nextInt(t.files.cases.size()));
            assertEquals(TestFiles.readAll(t.store, c.key, ReadOptions.filtered(c.filter)), read(t.store, c, cache),
                    "seed " + t.seed + " " + c);
            assertTrue(cache.chunkBytes() <= max, "seed " + t.seed + ": " + cache.chunkBytes() + " > " + max);
        }
    }

    @Test
    void readersOnSeveralThreadsShareTheEntries() throws Exception {
        Seeded t = seeded("threads", new LocalObjectStore(dir), 3);
        long seed = t.seed;
        ObjectStore store = t.store;
        Files files = t.files;
        List<List<LogRecord>> expected = new ArrayList<>();
        for (Case c : files.cases) {
            expected.add(TestFiles.readAll(store, c.key, ReadOptions.filtered(c.filter)));
        }
        FooterCache cache = new FooterCache(FooterCache.DEFAULT_MAX_BYTES);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int task = 0; task < 4; task++) {
                long taskSeed = t.rnd.nextLong();
                tasks.add(() -> {
                    Random r = new Random(taskSeed);
                    for (int i = 0; i < 40; i++) {
                        int k = r.nextInt(files.cases.size());
                        assertEquals(expected.get(k), read(store, files.cases.get(k), cache),
                                "seed " + seed + " " + files.cases.get(k));
                    }
                    return null;
                });
            }
            for (Future<Void> f : pool.invokeAll(tasks, 120, TimeUnit.SECONDS)) {
                f.get(); // a cancelled (timed-out) task throws here
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(cache.chunkBytes() > 0, "seed " + seed);
    }

    @Test
    void aFileReplacedUnderItsNameIsReadWithItsOwnEntries() throws IOException {
        List<LogRecord> a = ColumnarRowsTest.records(new Random(5), 400, -1);
        List<LogRecord> b = ColumnarRowsTest.records(new Random(6), 900, -1);
        FilterPredicate service = FilterApi.eq(FilterColumns.binary(Columns.SERVICE_NAME), Binary.fromString("svc1"));
        Case c = new Case("x.parquet", service);
        ObjectStore store = new LocalObjectStore(dir);
        FooterCache cache = new FooterCache(FooterCache.DEFAULT_MAX_BYTES);
        TestFiles.write(store, c.key, WriterOptions.ingest().withExtras(TestFiles.extrasOfEveryType()).withRowGroupRows(100), a);
        long lengthA = store.stat(c.key).orElseThrow().size();
        assertEquals(TestFiles.readAll(store, c.key, ReadOptions.filtered(service)), read(store, c, cache));
        store.delete(c.key);
        TestFiles.write(store, c.key, WriterOptions.ingest().withExtras(TestFiles.extrasOfEveryType()).withRowGroupRows(100), b);
        assertNotEquals(lengthA, store.stat(c.key).orElseThrow().size());
        List<LogRecord> expected = TestFiles.readAll(store, c.key, ReadOptions.filtered(service));
        assertTrue(!expected.isEmpty());
        assertEquals(expected, read(store, c, cache));
    }

    private static List<LogRecord> read(ObjectStore store, Case c, FooterCache cache) throws IOException {
        List<LogRecord> out = new ArrayList<>();
        try (LogFileReader r = LogFileReader.open(store, c.key, ReadOptions.filtered(c.filter), cache)) {
            for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                out.add(rec);
            }
        }
        return out;
    }

    /** Where the file's column indexes, offset indexes and bloom filters start. */
    private static Set<Long> indexOffsets(ObjectStore store, String key) throws IOException {
        Set<Long> out = new HashSet<>();
        try (RandomAccessInput in = store.openRandomAccess(key);
                ParquetFileReader r = ParquetFileReader.open(new StoreInputFile(in, key))) {
            for (BlockMetaData block : r.getFooter().getBlocks()) {
                for (ColumnChunkMetaData chunk : block.getColumns()) {
                    if (chunk.getColumnIndexReference() != null) {
                        out.add(chunk.getColumnIndexReference().getOffset());
                    }
                    if (chunk.getOffsetIndexReference() != null) {
                        out.add(chunk.getOffsetIndexReference().getOffset());
                    }
                    if (chunk.getBloomFilterOffset() >= 0) {
                        out.add(chunk.getBloomFilterOffset());
                    }
                }
            }
        }
        return out;
    }

    /** Records where every ranged read of a data file starts (offsets of different files coincide). */
    private static final class RecordingStore extends ForwardingObjectStore {
        /** Every ranged read as "key@offset". */
        final List<String> starts = java.util.Collections.synchronizedList(new ArrayList<>());

        RecordingStore(ObjectStore delegate) {
            super(delegate);
        }

        @Override
        public RandomAccessInput openRandomAccess(String key) throws IOException {
            RandomAccessInput in = super.openRandomAccess(key);
            return new RandomAccessInput() {
                @Override
                public long length() {
                    return in.length();
                }

                @Override
                public void readFully(long position, byte[] buffer, int offset, int len) throws IOException {
                    starts.add(key + "@" + position);
                    in.readFully(position, buffer, offset, len);
                }

                @Override
                public void close() throws IOException {
                    in.close();
                }
            };
        }
    }
}
