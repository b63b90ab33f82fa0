package dev.ourios.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class-data archive the build makes is the one {@code ./ourios} maps: a command's own classes and picocli's
 * (compiled for Java 5, which only a static dump can hold) come from it, not from the jar. It needs the CLI jar and
 * its archive, which the reactor builds before this module.
 */
class LauncherArchiveTest {
    @TempDir
    Path work;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aCommandMapsPicocliAndTheCliFromTheArchive() throws Exception {
        String launcher = System.getProperty(CliLauncher.PROPERTY);
        assumeTrue(launcher != null, "no -Dourios.launcher");
        Path target = Path.of(launcher).toAbsolutePath().getParent().resolve("ourios-cli/target");
        assumeTrue(Files.isRegularFile(target.resolve("ourios.jar"))
                        && Files.isRegularFile(target.resolve("ourios.jsa")),
                "the CLI jar and its archive are not built (mvn package -pl ourios-cli)");
        Path log = work.resolve("class-load.txt");
        ProcessBuilder pb = new ProcessBuilder(launcher, "query", "--help")
                .redirectOutput(work.resolve("stdout.txt").toFile())
                .redirectError(work.resolve("stderr.txt").toFile());
        pb.environment().put("JAVA_OPTS", "-Xlog:class+load=info:file=" + log);
        Process p = pb.start();
        assertTrue(p.waitFor(90, TimeUnit.SECONDS), "ourios query --help did not exit in 90 s");
        assertEquals(0, p.exitValue(), Files.readString(work.resolve("stderr.txt")));

        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        for (String cls : List.of("picocli.CommandLine", "picocli.CommandLine$Model$CommandSpec",
                "dev.ourios.cli.Main")) {
            String loaded = lines.stream().filter(l -> l.contains("] " + cls + " source: ")).findFirst()
                    .orElseThrow(() -> new AssertionError(cls + " was not loaded"));
            assertTrue(loaded.contains("source: shared objects file"), loaded);
        }
    }
}
