package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.gen.LogGenerator;
import dev.ourios.parquet.LogFileReader;
import dev.ourios.parquet.ReadOptions;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.ingest.IngestWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
    void hands_over_every_row_in_plan_order_and_then_the_failure() throws Exception {
        long seed = new Random().nextLong();
        System.out.println("PrefetchedInputsTest seed " + seed);
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        LogGenerator gen = new LogGenerator(TestStores.spec(List.of("acme"), 1, 3, 2_500 + new Random(seed).nextInt(500),
                seed));
        CompactionPlan plan = plan(store, gen, 3);
        List<ObjectInfo> inputs = plan.inputs();
        List<LogRecord> expected = new ArrayList<>();
        for (ObjectInfo in : inputs) {
            try (LogFileReader r = LogFileReader.open(store, in.key(), ReadOptions.partition(plan.partition()))) {
                LogRecord row;
                while ((row = r.read()) != null) {
                    expected.add(row);
                }
            }
        }
        List<LogRecord> seen = new ArrayList<>();
        try (PrefetchedInputs p = new PrefetchedInputs(store, plan, 2, "test-reader")) {
            p.forEach((source, projected) -> {
                seen.add(source);
                assertEquals(source.effectiveTime(), projected.effectiveTime());
            });
            assertEquals(3, p.fileSchemas().size());
        }
        assertEquals(expected, seen, "seed " + seed);

        // A missing second input: the first input's rows arrive, then its error, naming the file.
        store.delete(inputs.get(1).key());
        List<LogRecord> before = new ArrayList<>();
        try (PrefetchedInputs p = new PrefetchedInputs(store, plan, 2, "test-reader")) {
            IOException e = assertThrows(IOException.class, () -> p.forEach((s, w) -> before.add(s)));
            assertTrue(e.getMessage().contains(inputs.get(1).key()), e.getMessage());
        }
        assertEquals(expected.subList(0, before.size()), before);
        assertTrue(before.size() >= gen.file("acme", 0, 0).size(), "the first input's rows came first");
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
        PrefetchedInputs p = new PrefetchedInputs(store, plan, 2, "test-abandoned");
        Thread.sleep(300); // let it fill the queue and block
        long t0 = System.nanoTime();
        p.close();
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "close returned promptly");
    }
}
