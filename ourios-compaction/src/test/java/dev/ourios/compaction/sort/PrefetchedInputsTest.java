package dev.ourios.compaction.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.TestStores;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.Await;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader thread must hand over exactly the rows a plain read gives, in the same order, and an input's failure
 * must reach the caller after the rows before it, never be lost in the helper thread.
 */
class PrefetchedInputsTest {
    @TempDir
    Path dir;

    @Test
    void encoded_rows_are_the_reprojected_rows_with_their_origins_and_then_the_first_failure() throws Exception {
        long seed = new Random().nextLong();
        System.out.println("PrefetchedInputsTest encoded seed " + seed);
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        LogGenerator gen = new LogGenerator(TestStores.spec(List.of("acme"), 1, 4, 2_500 + new Random(seed).nextInt(500),
                seed));
        CompactionPlan plan = plan(store, gen, 4);
        List<ObjectInfo> inputs = plan.inputs();
        ServiceNameProjector projector = new ServiceNameProjector();
        TreeMap<Long, LogRecord> expected = rowsByOrigin(store, plan,
                row -> row.reprojected(projector.serviceOf(row.resourceAttributes())));
        Map<Long, LogRecord> seen = new TreeMap<>();
        long[] lastOrigin = new long[inputs.size()];
        Arrays.fill(lastOrigin, -1);
        RowChecksum handed = new RowChecksum();
        String readersSum;
        try (PrefetchedInputs p = new PrefetchedInputs(store, plan, 2, "test-reader", RowChecksum::new)) {
            p.forEachEncoded((buf, offset, strings) -> {
                long origin = RowCodec.originOf(buf, offset);
                int input = (int) (origin >>> 40);
                assertTrue(origin > lastOrigin[input], "each input's rows arrive in row order, seed " + seed);
                lastOrigin[input] = origin;
                assertNull(seen.put(origin, RowCodec.decode(buf, offset, strings)), "one row per origin, seed " + seed);
                handed.add(buf, offset, strings);
            });
            assertEquals(4, p.fileSchemas().size());
            readersSum = p.readChecksum().value();
        }
        assertEquals(expected, seen, "seed " + seed);
        // The readers' checksums, added up, are the checksum of every row handed over (and of the rows read).
        assertEquals(handed.value(), readersSum, "seed " + seed);
        assertEquals(RowChecksum.of(expected.values()), readersSum, "seed " + seed);

        // Inputs 1 and 2 missing (one on each reader): inputs 0's rows all arrive, then input 1's error, naming
        // the file, whichever reader fails first.
        store.delete(inputs.get(2).key());
        store.delete(inputs.get(1).key());
        TreeMap<Long, LogRecord> before = new TreeMap<>();
        try (PrefetchedInputs p = new PrefetchedInputs(store, plan, 2, "test-reader", null)) {
            IOException e = assertThrows(IOException.class, () -> p.forEachEncoded((buf, offset, strings) ->
                    before.put(RowCodec.originOf(buf, offset), RowCodec.decode(buf, offset, strings))));
            assertTrue(e.getMessage().contains(inputs.get(1).key()), e.getMessage());
        }
        assertEquals(new TreeMap<>(expected.headMap(RowCodec.origin(1, 0))),
                new TreeMap<>(before.headMap(RowCodec.origin(1, 0))), "seed " + seed);
        before.forEach((origin, row) -> assertEquals(expected.get(origin), row, "seed " + seed));
    }

    /** Every row of the plan's inputs as a plain read gives it, through {@code map}, by origin. */
    private static TreeMap<Long, LogRecord> rowsByOrigin(LocalObjectStore store, CompactionPlan plan,
            UnaryOperator<LogRecord> map) throws IOException {
        TreeMap<Long, LogRecord> rows = new TreeMap<>();
        for (int i = 0; i < plan.inputs().size(); i++) {
            try (LogFileReader r = LogFileReader.open(store, plan.inputs().get(i).key(),
                    ReadOptions.partition(plan.partition()))) {
                LogRecord row;
                long ordinal = 0;
                while ((row = r.read()) != null) {
                    rows.put(RowCodec.origin(i, ordinal++), map.apply(row));
                }
            }
        }
        return rows;
    }

    /** Lands {@code files} ingest files of the generator's first hour and plans them as one compaction. */
    private static CompactionPlan plan(LocalObjectStore store, LogGenerator gen, int files) throws IOException {
        PartitionKey partition = gen.partition("acme", 0);
        List<ObjectInfo> inputs = new ArrayList<>();
        for (int f = 0; f < files; f++) {
            String key = new IngestWriter(store).writeFile(partition, gen.file("acme", 0, f)).key();
            inputs.add(store.stat(key).orElseThrow());
        }
        return new CompactionPlan(partition, 0, inputs, 1 << 20, 64 << 20, 16);
    }

    @Test
    void closing_early_stops_a_reader_blocked_on_a_full_queue() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        CompactionPlan plan = plan(store, new LogGenerator(TestStores.spec(List.of("acme"), 1, 2, 20_000, 7)), 2);
        PrefetchedInputs p = new PrefetchedInputs(store, plan, 2, "test-abandoned", null);
        Await.until("a reader blocked on the full queue", Duration.ofMinutes(1),
                () -> blockedInQueuePut("test-abandoned-"));
        long t0 = System.nanoTime();
        p.close();
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "close returned promptly");
    }

    /** Whether a thread whose name starts with {@code prefix} is parked in {@link WeightedQueue#put}. */
    private static boolean blockedInQueuePut(String prefix) {
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            if (e.getKey().getName().startsWith(prefix) && e.getKey().getState() == Thread.State.WAITING
                    && Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().equals(WeightedQueue.class.getName())
                            && f.getMethodName().equals("put"))) {
                return true;
            }
        }
        return false;
    }
}
