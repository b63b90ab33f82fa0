package dev.ourios.parquet.write;

import dev.ourios.core.LogRecord;
import dev.ourios.core.SortKey;
import dev.ourios.parquet.TestFiles;
import dev.ourios.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Writes a fixed sample file; run in a separate JVM by {@link CrossProcessDeterminismTest}. */
public final class WriteSampleMain {
    private WriteSampleMain() {
    }

    static void writeSample(Path dir, String key) throws Exception {
        Random rnd = new Random(99);
        List<LogRecord> rows = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            rows.add(TestFiles.random(rnd, "svc-" + rnd.nextInt(5)));
        }
        rows.sort(SortKey.RECORD_ORDER);
        TestFiles.write(new LocalObjectStore(dir), key, WriterOptions.compacted(1 << 20).withRowGroupRows(1000), rows);
    }

    public static void main(String[] args) throws Exception {
        writeSample(Path.of(args[0]), args[1]);
    }
}
