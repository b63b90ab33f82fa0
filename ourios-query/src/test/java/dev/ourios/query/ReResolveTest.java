package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.write.WriterOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A planned file that vanishes (compaction committed, GC collected the retired input) makes the query re-resolve
 * its partition once; a store wrapper ({@link GapStore}) deletes real files in the gap between planning and reading.
 */
class ReResolveTest {
    static final Instant START = Instant.parse("2026-07-01T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void compactionAndGcBetweenPlanAndReadReturnEveryRowOnce() throws Exception {
        TestStore ts = new TestStore(dir, 11);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), START, 1, 3, 300, 2));
        PartitionKey p = gen.partition("t", 0);
        List<String> inputs = new ArrayList<>();
        List<LogRecord> rows = new ArrayList<>();
        for (int f = 0; f < 3; f++) {
            List<LogRecord> fileRows = gen.file("t", 0, f);
            rows.addAll(fileRows);
            inputs.add(ts.ingest(p, fileRows));
        }
        List<Integer> attempts = new ArrayList<>();
        GapStore compactAndCollect = new GapStore(ts.store, (key, attempt) -> {
            attempts.add(attempt);
            if (attempt == 1) {
                String out = ts.compacted(p, rows, WriterOptions.compacted(1 << 20));
                ts.commit(p, 1, out, inputs, rows.size());
                ts.store.delete(inputs.get(1)); // GC, past the grace period
            }
        });
        QueryResult r = ts.engine(compactAndCollect).collect(Query.tenant("t").order(Query.Order.OLDEST_FIRST));
        assertEquals(List.of(1, 2), attempts);
        assertEquals(rows.size(), r.rows().size());
        assertEquals(rows.size(), new HashSet<>(r.rows()).size() + duplicates(r.rows()));
        assertEquals(0, duplicates(r.rows()));
        assertEquals(1, r.stats().partitions());
        assertTrue(r.stats().files() >= 2, r.stats().toString()); // one read before the vanish, one after
    }

    @Test
    void vanishingAgainFailsTheQueryNamingTheFile() throws Exception {
        TestStore ts = new TestStore(dir, 12);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), START, 1, 3, 50, 2));
        PartitionKey p = gen.partition("t", 0);
        for (int f = 0; f < 3; f++) {
            ts.ingest(p, gen.file("t", 0, f));
        }
        // Each resolution's first planned file is gone by the time it is opened.
        GapStore deleteOne = new GapStore(ts.store, (key, attempt) -> ts.store.delete(key));
        IOException e = assertThrows(IOException.class, () -> ts.engine(deleteOne).collect(Query.tenant("t")));
        assertTrue(e.getMessage().contains("vanished again"), e.getMessage());
        assertTrue(e.getMessage().contains(".parquet"), e.getMessage());
    }

    private static int duplicates(List<LogRecord> rows) {
        int d = 0;
        for (int i = 0; i < rows.size(); i++) {
            for (int j = i + 1; j < rows.size(); j++) {
                if (rows.get(i).equals(rows.get(j))) {
                    d++;
                }
            }
        }
        return d;
    }
}
