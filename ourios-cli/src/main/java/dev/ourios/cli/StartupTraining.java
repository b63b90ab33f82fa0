package dev.ourios.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The workload the build runs once, under {@code -XX:DumpLoadedClassList}, to list the classes of the class-data
 * archive that {@code ./ourios} starts the JVM with: the classes a command loads are then mapped from the archive,
 * already parsed and verified, instead of read from the jar (about a third of a short command's time in a fresh
 * JVM). It runs the commands users start most often from a shell, on a small store it makes and deletes in
 * {@code workDir}.
 */
public final class StartupTraining {
    private StartupTraining() {
    }

    /** Runs the workload; exits 1 naming each command that failed, so a renamed flag fails the build. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: StartupTraining WORK_DIR");
            System.exit(2);
        }
        List<String> failed = run(Path.of(args[0]));
        failed.forEach(f -> System.err.println("startup training: " + f));
        System.exit(failed.isEmpty() ? 0 : 1);
    }

    /** Runs every command of the workload in this JVM and returns those that did not exit 0, with their status. */
    public static List<String> run(Path work) throws IOException {
        deleteTree(work);
        String store = work.resolve("store").toString();
        String window = "--from=2026-01-01T00:00:00Z";
        String end = "--to=2026-01-01T01:00:00Z";
        List<String[]> commands = List.of(
                new String[] {"--help"},
                new String[] {"generate", "--store", store, "--tenants", "1", "--hours", "1", "--files-per-hour", "3",
                        "--rows-per-file", "2000", "--start", "2026-01-01T00:00:00Z"},
                new String[] {"query", "--store", store, "--tenant", "default", window, end, "--count"},
                new String[] {"compact", "--store", store, "--once"},
                new String[] {"query", "--store", store, "--tenant", "default", window, end, "--service",
                        "checkout", "--count"},
                new String[] {"query", "--store", store, "--tenant", "default", window, end, "--severity-min", "17",
                        "--limit", "5", "--json"},
                new String[] {"query", "--store", store, "--tenant", "default", window, end, "--limit", "5"},
                new String[] {"files", "--store", store, "--tenant", "default", window, end},
                new String[] {"inspect", work.resolve("store/data/tenant_id=default/year=2026/month=01/day=01/hour=00")
                        .toString()},
                new String[] {"verify", "--store", store},
                new String[] {"gc", "--store", store});
        List<String> failed = new ArrayList<>();
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream())); // the commands' results are not wanted
        try {
            for (String[] command : commands) {
                int exit = Main.run(command);
                if (exit != 0) {
                    failed.add("'ourios " + String.join(" ", command) + "' exited " + exit);
                }
            }
        } finally {
            System.setOut(out);
            deleteTree(work);
        }
        return failed;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
