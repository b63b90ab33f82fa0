package dev.ourios.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where one launcher command's classes come from: runs it once (untimed) with {@code -Xlog:class+load} through
 * {@code JAVA_OPTS} and counts the classes mapped from the class-data archive (the top layer), from the JDK's base
 * archive, and read from jars.
 */
final class ArchiveProbe {
    private ArchiveProbe() {
    }

    static String describe(FreshProcess procs, String label, List<String> command)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile("ourios-class-load-", ".txt");
        try {
            String name = "class-load-" + label.replaceAll("[^A-Za-z]+", "-");
            procs.run(name, command, Map.of("JAVA_OPTS", "-Xlog:class+load=info:file=" + log)).stdoutOrThrow();
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            long top = lines.stream().filter(l -> l.contains("source: shared objects file (top)")).count();
            long base = lines.stream().filter(l -> l.endsWith("source: shared objects file")).count();
            long loaded = lines.stream().filter(l -> l.contains("[class,load]")).count();
            return String.format("`%s` loads %d classes: %d from the archive, %d from the JDK's base archive, %d "
                    + "from jars or generated", label, loaded, top, base, loaded - top - base);
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
