package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A compaction flag out of range is one usage line naming the flag, exit 2, before the store is touched. */
class CompactionFlagsTest {
    @TempDir
    Path dir;

    @Test
    void a_max_tail_ratio_that_is_not_a_fraction_is_refused_naming_the_flag() {
        Path store = dir.resolve("store");
        for (String bad : new String[] {"1.5", "-0.25", "NaN"}) {
            InProcessCli.Result r = InProcessCli.run("compact", "--store", store.toString(), "--once",
                    "--max-tail-ratio", bad);
            assertEquals(2, r.exit(), bad + ": " + r.err());
            assertTrue(r.err().contains("--max-tail-ratio must be between 0 and 1"), r.err());
            assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        }
        InProcessCli.Result word = InProcessCli.run("compact", "--store", store.toString(), "--once",
                "--max-tail-ratio", "quarter");
        assertEquals(2, word.exit(), word.err());
        assertTrue(word.err().contains("--max-tail-ratio"), word.err());
        assertTrue(!Files.exists(store), "nothing was created");
    }
}
