package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build's class-data training workload: every command in it still runs, and it leaves nothing behind. */
class StartupTrainingTest {
    @TempDir
    Path dir;

    @Test
    void every_command_of_the_workload_exits_0_and_its_store_is_removed() throws Exception {
        Path work = dir.resolve("training");
        assertEquals(List.of(), StartupTraining.run(work));
        assertFalse(Files.exists(work));
    }
}
