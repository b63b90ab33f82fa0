package dev.ourios.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where one launcher command's classes come from: runs it once (untimed) with {@code -Xlog:class+load} through
 * {@code JAVA_OPTS} and counts the classes mapped from a class-data archive (the launcher's static archive, or the
 * JDK's own when the launcher's cannot be used) and those read from jars or generated.
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
            long mapped = lines.stream().filter(l -> l.contains("source: shared objects file")).count();
            List<String> rest = lines.stream().filter(l -> l.contains("[class,load]"))
                    .filter(l -> !l.contains("source: shared objects file")).toList();
            return String.format("`%s` loads %d classes: %d mapped from an archive, %d from jars or generated (%s)",
                    label, mapped + rest.size(), mapped, rest.size(), largestGroups(rest));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** The three packages most of the classes not from an archive belong to, with their counts. */
    private static String largestGroups(List<String> lines) {
        Map<String, Long> byPackage = lines.stream().map(ArchiveProbe::packageOf)
                .collect(Collectors.groupingBy(p -> p, Collectors.counting()));
        return byPackage.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(3)
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }

    /** {@code [0.5s][info][class,load] picocli.CommandLine$Help source: …} → {@code picocli}. */
    private static String packageOf(String line) {
        String[] words = line.split(" ");
        String cls = words.length > 1 ? words[1] : line;
        int dot = cls.lastIndexOf('.');
        return dot < 0 ? "(default package)" : cls.substring(0, dot);
    }
}
