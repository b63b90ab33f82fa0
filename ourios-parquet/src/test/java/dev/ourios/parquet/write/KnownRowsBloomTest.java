package dev.ourios.parquet.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.parquet.read.StoreInputFile;
import dev.ourios.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.hadoop.BloomFilterReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ingest file whose writer is told its row count gets one fixed bloom filter per bloom column, sized for that
 * count, instead of parquet-java's adaptive candidates. Read back by parquet-java's own reader: every value written
 * is found (a bloom filter never has false negatives), the size is the one sized for the row count, absent values
 * are mostly refused, and the rows read back are the rows written.
 */
class KnownRowsBloomTest {
    @TempDir
    Path dir;

    @Test
    void a_filter_sized_from_the_row_count_holds_every_value_written() throws Exception {
        long seed = System.nanoTime();
        System.out.println("KnownRowsBloomTest seed " + seed);
        Random rnd = new Random(seed);
        try (LocalObjectStore store = new LocalObjectStore(dir)) {
            for (int round = 0; round < 6; round++) {
                int n = 1 + rnd.nextInt(rnd.nextBoolean() ? 50 : 20_000);
                List<LogRecord> rows = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    byte[] trace = TestFiles.bytes(rnd, 16);
                    rows.add(TestFiles.random(rnd, "svc-" + rnd.nextInt(5), b -> b.traceId(trace)));
                }
                String key = "f" + round + ".parquet";
                TestFiles.write(store, key, WriterOptions.ingest().withBloomRowsPerGroup(n), rows);
                assertEquals(rows, TestFiles.readAll(store, key, ReadOptions.all()), "seed " + seed);

                try (ParquetFileReader reader = ParquetFileReader.open(
                        new StoreInputFile(store.openRandomAccess(key), key))) {
                    assertEquals(1, reader.getRowGroups().size(), "seed " + seed);
                    BlockMetaData group = reader.getRowGroups().get(0);
                    BloomFilterReader blooms = reader.getBloomFilterDataReader(group);
                    ColumnChunkMetaData chunk = group.getColumns().stream()
                            .filter(c -> c.getPath().toDotString().equals(Columns.TRACE_ID)).findFirst()
                            .orElseThrow();
                    BloomFilter filter = blooms.readBloomFilter(chunk);
                    assertTrue(filter != null, "trace_id has a filter; seed " + seed);
                    int sized = new BlockSplitBloomFilter(BlockSplitBloomFilter.optimalNumOfBits(n, 0.01) / 8,
                            (int) (WriterOptions.INGEST_ROW_GROUP_BYTES / 64 > 1 << 20 ? 1 << 20
                                    : WriterOptions.INGEST_ROW_GROUP_BYTES / 64)).getBitsetSize();
                    assertEquals(sized, filter.getBitsetSize(), "n " + n + ", seed " + seed);
                    for (LogRecord r : rows) {
                        assertTrue(filter.findHash(filter.hash(Binary.fromConstantByteArray(r.traceId()))),
                                "a written trace id is refused; seed " + seed);
                    }
                    int falsePositives = 0;
                    for (int i = 0; i < 2_000; i++) {
                        byte[] absent = TestFiles.bytes(rnd, 16);
                        if (filter.findHash(filter.hash(Binary.fromConstantByteArray(absent)))) {
                            falsePositives++;
                        }
                    }
                    // Sized for FPP 0.01 at n values; 5% leaves room for chance on 2,000 probes.
                    assertTrue(falsePositives < 100, falsePositives + " of 2000 absent ids pass; seed " + seed);
                }
            }
        }
    }
}
