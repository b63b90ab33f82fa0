package dev.ourios.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared-hour suite through the real launcher at a small size: one process and two sharded processes compact
 * the same hour into the same band (the suite checks each band byte for byte against the first), unpinned.
 */
class SharedHourSuiteTest {
    @TempDir
    Path work;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void one_process_and_two_sharded_processes_write_the_same_band() throws Exception {
        BuiltCli.assume();
        BenchOptions o = new BenchOptions("shared-hour", 1, 1, 0, work, Optional.empty(), 64,
                List.of("--size-mib=6", "--max-file-mib=1", "--pin=false"));
        SuiteReport r = BenchMain.run(new SharedHourSuite(), o, new PrintStream(PrintStream.nullOutputStream()));
        assertEquals(List.of("one process", "two processes"), r.rows().stream().map(row -> row.get("mode")).toList());
        for (Map<String, Object> row : r.rows()) {
            assertTrue(((Number) row.get("files")).intValue() >= 2, "a band: " + row);
            assertTrue(((Number) row.get("median wall s")).doubleValue() > 0, row.toString());
        }
    }
}
