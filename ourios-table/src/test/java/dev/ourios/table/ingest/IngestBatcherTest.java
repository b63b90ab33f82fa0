package dev.ourios.table.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Batches stay within the budget, lose and repeat no row, and are a function of the rows alone. */
class IngestBatcherTest {
    private static final long HOUR = 3_600_000_000_000L;

    private static List<List<LogRecord>> input(long seed) {
        Random rnd = new Random(seed);
        List<List<LogRecord>> lines = new ArrayList<>();
        for (int l = 0; l < 400; l++) {
            List<LogRecord> line = new ArrayList<>();
            for (int i = rnd.nextInt(20); i > 0; i--) {
                line.add(LogRecord.builder("t").timeUnixNano(HOUR * (480_000 + rnd.nextInt(5)) + rnd.nextInt(1000))
                        .bodyKind(0).body(("x".repeat(rnd.nextInt(2000))).getBytes(StandardCharsets.UTF_8))
                        .build());
            }
            lines.add(line);
        }
        return lines;
    }

    private static List<IngestBatcher.Batch> run(List<List<LogRecord>> lines, long budget) {
        IngestBatcher b = new IngestBatcher(budget);
        List<IngestBatcher.Batch> out = new ArrayList<>();
        for (List<LogRecord> line : lines) {
            long lineBytes = line.stream().mapToLong(LogRecord::roughHeapBytes).sum();
            for (IngestBatcher.Batch batch : b.add(line)) {
                long bytes = batch.rows().stream().mapToLong(LogRecord::roughHeapBytes).sum();
                assertTrue(bytes <= budget + lineBytes, "a batch of " + bytes + " bytes over budget " + budget);
                out.add(batch);
            }
        }
        out.addAll(b.drain());
        assertEquals(0, b.bufferedRows());
        return out;
    }

    @Test
    void everyRowOnceEachBatchOnePartitionWithinBudget() {
        List<List<LogRecord>> lines = input(7);
        List<IngestBatcher.Batch> batches = run(lines, 64 * 1024);
        assertTrue(batches.size() > 10, "the budget cut the input: " + batches.size());
        List<LogRecord> all = lines.stream().flatMap(List::stream).toList();
        List<LogRecord> landed = new ArrayList<>();
        for (IngestBatcher.Batch b : batches) {
            for (LogRecord r : b.rows()) {
                assertEquals(b.partition(), r.partitionKey());
            }
            landed.addAll(b.rows());
        }
        assertEquals(all.size(), landed.size());
        assertTrue(landed.containsAll(all));
    }

    @Test
    void theSameRowsGiveTheSameBatches() {
        List<IngestBatcher.Batch> a = run(input(11), 32 * 1024);
        List<IngestBatcher.Batch> b = run(input(11), 32 * 1024);
        assertEquals(a, b);
        List<PartitionKey> order = run(input(11), Long.MAX_VALUE).stream().map(IngestBatcher.Batch::partition).toList();
        assertEquals(order.stream().sorted().toList(), order, "at the end, one batch per partition in order");
    }
}
