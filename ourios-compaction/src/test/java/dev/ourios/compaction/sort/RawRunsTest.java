package dev.ourios.compaction.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.rows.RowCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs are written raw while they fit the sort's raw allowance and compressed beyond it; either way the merge gives
 * back the same rows in the same order.
 */
class RawRunsTest {
    @TempDir
    Path dir;

    @Test
    void rawAndCompressedRunsMergeToTheSameRows() throws Exception {
        long seed = System.nanoTime();
        System.out.println("RawRunsTest seed " + seed);
        Random rnd = new Random(seed);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), Instant.parse("2026-03-01T10:00:00Z"), 1,
                3, 6000, 6).withSeed(rnd.nextLong()));
        List<LogRecord> rows = new ArrayList<>();
        List<Long> origins = new ArrayList<>();
        for (int f = 0; f < 3; f++) {
            List<LogRecord> file = gen.file("t", 0, f);
            for (int i = 0; i < file.size(); i++) {
                rows.add(file.get(i));
                origins.add(RowCodec.origin(f, i));
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, rnd); // rows may reach the sorter in any order
        long budget = 1 << 20;
        List<LogRecord> expected = null;
        // Every run compressed, every run raw, the first two raw and the rest compressed.
        for (long allowance : new long[] {0, Long.MAX_VALUE, 2 * budget + budget / 2}) {
            Path scratch = Files.createTempDirectory(dir, "sort-");
            List<LogRecord> out = new ArrayList<>();
            int formed;
            int runs;
            int raw;
            try (ExternalSorter sorter = new ExternalSorter(budget, 8, scratch, new ResidencyGauge(), allowance)) {
                for (int i : order) {
                    sorter.add(rows.get(i), origins.get(i));
                }
                formed = sorter.spilledRuns();
                sorter.drainTo((buf, off, len, strings) -> out.add(RowCodec.decode(buf, off, strings)));
                runs = sorter.spilledRuns();
                raw = sorter.rawRuns();
            }
            assertTrue(runs > 8, "runs " + runs + " (a second merge level is wanted)");
            String what = "allowance " + allowance + ", " + formed + " runs formed before the drain, seed " + seed;
            if (allowance == Long.MAX_VALUE) { // every formed run (the drain may spill one more); merged ones not
                assertTrue(raw >= formed && raw <= formed + 1, raw + " raw, " + what);
            } else {
                assertEquals(allowance == 0 ? 0 : 2, raw, what);
            }
            if (expected == null) {
                expected = out;
                assertEquals(rows.size(), out.size());
            } else {
                assertEquals(expected, out, "allowance " + allowance + ", seed " + seed);
            }
        }
    }
}
