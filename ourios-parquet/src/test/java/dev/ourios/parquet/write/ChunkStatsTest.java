package dev.ourios.parquet.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.read.StoreInputFile;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.rows.StringTable;
import dev.ourios.store.LocalObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** attributes, resource_attributes and body carry exact chunk-level min/max/null counts (STORAGE.md §2). */
class ChunkStatsTest {
    @TempDir
    Path dir;

    @Test
    void chunk_statistics_are_the_exact_min_max_and_null_count_of_each_row_group() throws Exception {
        long seed = System.nanoTime();
        System.out.println("ChunkStatsTest seed " + seed);
        Random rnd = new Random(seed);
        List<LogRecord> in = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            LogRecord r = TestFiles.random(rnd, "svc-" + rnd.nextInt(4));
            // Long repeated values and a few over parquet-java's 4 KiB statistics limit.
            String resource = rnd.nextInt(500) == 0 ? "x".repeat(5000) : r.resourceAttributes();
            in.add(LogRecord.builder(r.tenantId()).timeUnixNano(r.timeUnixNano()).attributes(r.attributes())
                    .resourceAttributes(resource).body(r.body()).serviceName(r.serviceName()).build());
        }
        var store = new LocalObjectStore(dir);
        for (boolean encoded : new boolean[] {false, true}) {
            String name = encoded ? "e.parquet" : "r.parquet";
            WriterOptions opts = WriterOptions.compacted(1 << 20).withRowGroupRows(700);
            if (encoded) {
                try (LogFileWriter w = new LogFileWriter(store.create(name), opts)) {
                    for (LogRecord r : in) {
                        RowCodec.Output out = new RowCodec.Output(64);
                        RowCodec.encode(r, 0, StringTable.NONE, out);
                        w.write(out.array(), 0, out.size(), null);
                    }
                    w.commit();
                }
            } else {
                TestFiles.write(store, name, opts, in);
            }
            try (var input = store.openRandomAccess(name);
                    ParquetFileReader reader = ParquetFileReader.open(new StoreInputFile(input, name),
                            ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
                List<BlockMetaData> blocks = reader.getFooter().getBlocks();
                assertEquals(5, blocks.size());
                int first = 0;
                for (BlockMetaData b : blocks) {
                    List<LogRecord> group = in.subList(first, first + (int) b.getRowCount());
                    first += (int) b.getRowCount();
                    check(b, Columns.ATTRIBUTES, group, r -> utf8(r.attributes()), seed);
                    check(b, Columns.RESOURCE_ATTRIBUTES, group, r -> utf8(r.resourceAttributes()), seed);
                    check(b, Columns.BODY, group, LogRecord::body, seed);
                }
            }
        }
    }

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static void check(BlockMetaData b, String column, List<LogRecord> rows, Function<LogRecord, byte[]> value,
            long seed) {
        ColumnChunkMetaData cc = b.getColumns().stream()
                .filter(c -> c.getPath().toDotString().equals(column)).findFirst().orElseThrow();
        Statistics<?> s = cc.getStatistics();
        byte[] min = null;
        byte[] max = null;
        long nulls = 0;
        for (LogRecord r : rows) {
            byte[] v = value.apply(r);
            if (v == null) {
                nulls++;
                continue;
            }
            min = min == null || Arrays.compareUnsigned(v, min) < 0 ? v : min;
            max = max == null || Arrays.compareUnsigned(v, max) > 0 ? v : max;
        }
        assertEquals(nulls, s.getNumNulls(), column + " seed " + seed);
        if (max != null && max.length > ChunkStats.MAX_STATS_BYTES) {
            assertTrue(!s.hasNonNullValue(), column + " over 4 KiB keeps no min/max, seed " + seed);
            return;
        }
        if (min == null) {
            assertNull(s.genericGetMin());
            return;
        }
        assertArrayEquals(min, ((org.apache.parquet.io.api.Binary) s.genericGetMin()).getBytes(), column);
        assertArrayEquals(max, ((org.apache.parquet.io.api.Binary) s.genericGetMax()).getBytes(), column);
    }
}
