package dev.ourios.bench.unsorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.RewriteResult;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.ingest.IngestWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The baseline rewrites every input row exactly once and refuses a row of another partition. */
class UnsortedRewriterTest {
    private static final Instant HOUR = Instant.parse("2026-11-01T10:00:00Z");

    @TempDir
    Path dir;

    @Test
    void every_input_row_is_in_the_output_once() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), HOUR, 1, 5, 3_000, 17));
        CompactionPlan plan = plan(store, gen, 5);
        List<LogRecord> in = new ArrayList<>();
        for (ObjectInfo o : plan.inputs()) {
            in.addAll(readAll(store, o.key()));
        }

        RewriteResult r = new UnsortedRewriter(store).rewrite(plan);

        assertTrue(r.checksumsMatch(), r.toString());
        assertEquals(in.size(), r.rowsOut());
        List<LogRecord> out = readAll(store, r.outputKey());
        assertEquals(RowChecksum.of(in), RowChecksum.of(out), "the same rows, in another order");
    }

    @Test
    void a_row_of_another_partition_fails_the_rewrite() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), HOUR, 2, 2, 200, 18));
        CompactionPlan plan = plan(store, gen, 2);
        PartitionKey next = gen.partition("acme", 1);
        String rogue = new IngestWriter(store).writeFile(next, gen.file("acme", 1, 0)).key();
        List<ObjectInfo> inputs = new ArrayList<>(plan.inputs());
        // The next hour's file, planned as if it lay in this hour: its rows do not match the plan's partition.
        inputs.add(store.stat(rogue).orElseThrow());
        CompactionPlan bad = new CompactionPlan(plan.partition(), 0, inputs, 1 << 20, 64 << 20, 16);

        assertThrows(IOException.class, () -> new UnsortedRewriter(store).rewrite(bad));
    }

    private static CompactionPlan plan(LocalObjectStore store, LogGenerator gen, int files) throws IOException {
        PartitionKey partition = gen.partition("acme", 0);
        List<ObjectInfo> inputs = new ArrayList<>();
        for (int f = 0; f < files; f++) {
            String key = new IngestWriter(store).writeFile(partition, gen.file("acme", 0, f)).key();
            inputs.add(store.stat(key).orElseThrow());
        }
        return new CompactionPlan(partition, 0, inputs, 1 << 20, 64 << 20, 16);
    }

    private static List<LogRecord> readAll(LocalObjectStore store, String key) throws IOException {
        List<LogRecord> rows = new ArrayList<>();
        try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all())) {
            for (LogRecord row = r.read(); row != null; row = r.read()) {
                rows.add(row);
            }
        }
        return rows;
    }
}
