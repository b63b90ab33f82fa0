package dev.ourios.parquet.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Column slices encoded on a helper thread must not change a byte: the same rows give the same file with one writer
 * thread or two, whether row groups are cut by size or by row count and whether wide rows force early shreds.
 */
class RowGroupWriterTest {
    @TempDir
    Path dir;

    @Test
    void one_thread_and_two_write_the_same_bytes() throws Exception {
        long seed = System.nanoTime();
        System.out.println("RowGroupWriterTest seed " + seed);
        Random rnd = new Random(seed);
        List<LogRecord> rows = new ArrayList<>(TestFiles.edgeRecords());
        for (int i = 0; i < 6000; i++) {
            rows.add(TestFiles.random(rnd, "svc-" + rnd.nextInt(4)));
            if (rnd.nextInt(1500) == 0) { // wider than a batch's byte bound: shredded early
                rows.add(LogRecord.builder("t1").timeUnixNano(TestFiles.HOUR + i)
                        .body(TestFiles.bytes(rnd, RowGroupWriter.BATCH_BYTES + rnd.nextInt(1000))).build());
            }
        }
        var store = new LocalObjectStore(dir);
        for (WriterOptions base : List.of(WriterOptions.compacted(64 << 10),
                WriterOptions.compacted(8 << 20).withRowGroupRows(700 + rnd.nextInt(600)))) {
            TestFiles.write(store, "one.parquet", base.withWriterThreads(1), rows);
            WrittenFile two = TestFiles.write(store, "two.parquet", base.withWriterThreads(2), rows);
            assertArrayEquals(Files.readAllBytes(dir.resolve("one.parquet")),
                    Files.readAllBytes(dir.resolve("two.parquet")), "seed " + seed + " options " + base);
            assertTrue(two.rowGroups() > 2, "several row groups: " + two.rowGroups());
            assertEquals(rows, TestFiles.readAll(store, "two.parquet", ReadOptions.all()), "seed " + seed);
            store.delete("one.parquet");
            store.delete("two.parquet");
        }
    }
}
