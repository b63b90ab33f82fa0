package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FooterCache}: readers opened through a cache return exactly the rows of readers that read their footers,
 * fetch no footer the cache holds, never answer for one file with another's footer, and the cache stays within its
 * bound, evicting the least recently used.
 */
class FooterCacheTest {
    @TempDir
    Path dir;

    @Test
    void readsThroughTheCacheEqualReadsWithout() throws IOException {
        long seed = System.nanoTime();
        System.out.println("FooterCacheTest seed " + seed);
        Random rnd = new Random(seed);
        ObjectStore store = new LocalObjectStore(dir);
        FooterCache cache = new FooterCache(FooterCache.DEFAULT_MAX_BYTES);
        List<String> keys = new ArrayList<>();
        for (int f = 0; f < 6; f++) {
            String key = "f" + f + ".parquet";
            TestFiles.write(store, key, WriterOptions.compacted(64 << 10).withExtras(TestFiles.extrasOfEveryType())
                            .withRowGroupRows(50 + rnd.nextInt(400)),
                    ColumnarRowsTest.records(rnd, 1 + rnd.nextInt(1500), -1));
            keys.add(key);
        }
        Map<String, Long> firstBytes = new HashMap<>(); // bytes each file's first read fetched
        for (int round = 0; round < 3; round++) {
            for (String key : keys) {
                String what = "seed " + seed + " round " + round + " " + key;
                int min = 1 + (key.hashCode() & 0xFFFF) % 24; // the same read each round
                ReadOptions opts = ReadOptions.filtered(FilterApi.gtEq(FilterApi.intColumn(Columns.SEVERITY_NUMBER),
                        min));
                List<LogRecord> expected = TestFiles.readAll(store, key, opts);
                List<LogRecord> actual = new ArrayList<>();
                long bytes;
                try (LogFileReader r = LogFileReader.open(store, key, opts, cache)) {
                    for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                        actual.add(rec);
                    }
                    bytes = r.bytesRead();
                }
                assertEquals(expected, actual, what);
                if (round == 0) {
                    firstBytes.put(key, bytes);
                } else {
                    assertTrue(bytes < firstBytes.get(key), what + ": the footer was fetched again");
                }
            }
        }
        assertEquals(keys.size(), cache.size());
        assertTrue(cache.bytes() > 0 && cache.bytes() <= cache.maxBytes());
    }

    @Test
    void aFileIsNeverReadWithAnotherFilesFooter() throws IOException {
        Random rnd = new Random(11);
        ObjectStore store = new LocalObjectStore(dir);
        FooterCache cache = new FooterCache(FooterCache.DEFAULT_MAX_BYTES);
        List<LogRecord> a = ColumnarRowsTest.records(rnd, 300, -1);
        List<LogRecord> b = ColumnarRowsTest.records(rnd, 700, -1);
        TestFiles.write(store, "a.parquet", WriterOptions.compacted(64 << 10).withExtras(TestFiles.extrasOfEveryType()), a);
        TestFiles.write(store, "b.parquet", WriterOptions.compacted(64 << 10).withExtras(TestFiles.extrasOfEveryType()), b);
        for (int i = 0; i < 2; i++) {
            assertEquals(a, readAll(store, "a.parquet", cache));
            assertEquals(b, readAll(store, "b.parquet", cache));
        }
        // A file gone from the store fails its open as before, whatever the cache holds.
        store.delete("a.parquet");
        assertThrows(IOException.class, () -> readAll(store, "a.parquet", cache));
        assertEquals(b, readAll(store, "b.parquet", cache));
    }

    @Test
    void theCacheStaysWithinItsBoundDroppingTheLeastRecentlyUsed() {
        long seed = System.nanoTime();
        System.out.println("FooterCacheTest bound seed " + seed);
        Random rnd = new Random(seed);
        long max = 3 * 10_000;
        FooterCache cache = new FooterCache(max);
        ParquetMetadata footer = new ParquetMetadata(new FileMetaData(new MessageType("m"), Map.of(), "test"),
                List.of());
        List<FooterCache.Key> order = new ArrayList<>(); // least recently used first
        Map<FooterCache.Key, Long> weights = new HashMap<>();
        for (int i = 0; i < 2000; i++) {
            if (!order.isEmpty() && rnd.nextInt(3) == 0) {
                FooterCache.Key k = order.get(rnd.nextInt(order.size()));
                assertTrue(cache.get(k).isPresent(), "seed " + seed + ": " + k + " was evicted out of order");
                order.remove(k);
                order.add(k);
                continue;
            }
            FooterCache.Key k = new FooterCache.Key("file-" + i, rnd.nextInt(100_000));
            long serialized = 1 + rnd.nextInt(12_000);
            cache.put(k, footer, serialized);
            long weight = serialized * FooterCache.HEAP_PER_SERIALIZED_BYTE;
            if (weight <= max) {
                order.add(k);
                weights.put(k, weight);
                long total = order.stream().mapToLong(weights::get).sum();
                while (total > max) {
                    FooterCache.Key gone = order.remove(0);
                    total -= weights.get(gone);
                    assertEquals(Optional.empty(), cache.get(gone), "seed " + seed + ": " + gone + " kept");
                }
            } else {
                assertEquals(Optional.empty(), cache.get(k), "seed " + seed + ": a footer over the bound was kept");
            }
            assertTrue(cache.bytes() <= max, "seed " + seed + ": " + cache.bytes() + " > " + max);
            assertEquals(order.size(), cache.size(), "seed " + seed);
        }
        assertThrows(IllegalArgumentException.class, () -> new FooterCache(-1));
    }

    private static List<LogRecord> readAll(ObjectStore store, String key, FooterCache cache) throws IOException {
        List<LogRecord> out = new ArrayList<>();
        try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all(), cache)) {
            for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                out.add(rec);
            }
        }
        return out;
    }
}
