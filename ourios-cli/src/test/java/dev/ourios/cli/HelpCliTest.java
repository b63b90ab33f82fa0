package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code ourios <command> --help} and {@code -h} print that command's usage and exit 0 for every command and
 * subcommand, before any required option or parameter is checked. The commands are enumerated from the picocli
 * tree itself, so a command added later is covered without touching this test.
 */
class HelpCliTest {
    /** Every command path below the root, e.g. [query], [config, check]. */
    private static List<List<String>> commandPaths() {
        List<List<String>> paths = new ArrayList<>();
        Main.forEachCommand(Main.commandLine(), cl -> {
            List<String> path = new ArrayList<>();
            for (CommandLine c = cl; c.getParent() != null; c = c.getParent()) {
                path.add(0, c.getCommandName());
            }
            if (!path.isEmpty()) {
                paths.add(path);
            }
        });
        return paths;
    }

    @Test
    void every_command_answers_help_with_its_usage_and_exit_0() {
        List<List<String>> paths = commandPaths();
        assertTrue(paths.size() >= 12, "found only " + paths);
        for (List<String> path : paths) {
            for (String flag : List.of("--help", "-h")) {
                List<String> args = new ArrayList<>(path);
                args.add(flag);
                InProcessCli.Result r = InProcessCli.run(args.toArray(String[]::new));
                assertEquals(0, r.exit(), args + ": " + r.err());
                assertTrue(r.out().startsWith("Usage: ourios " + String.join(" ", path)), args + ": " + r.out());
                assertEquals("", r.err(), args + " printed to stderr");
            }
        }
    }

    /**
     * The packaged root usage (what {@code mvn package} renders into the jar) is printed without building the tree,
     * and is byte for byte what picocli prints; a child JVM runs it as {@code ./ourios --help} does.
     */
    @Test
    void the_packaged_root_usage_is_what_picocli_prints(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path resources = dir.resolve("resources");
        RootUsage.main(new String[] {resources.resolve("dev/ourios/cli/" + RootUsage.RESOURCE).toString()});
        InProcessCli.Result picocli = InProcessCli.run("--help");
        assertEquals(0, picocli.exit(), picocli.err());
        for (String flag : List.of("--help", "-h")) {
            java.nio.file.Path loaded = dir.resolve("classes" + flag + ".txt");
            try (dev.ourios.testkit.ChildJvm child = dev.ourios.testkit.ChildJvm.main(Main.class).name("ourios-help")
                    .classpath(resources + java.io.File.pathSeparator + System.getProperty("java.class.path"))
                    .jvmArgs("-Xlog:class+load:file=" + loaded).args(flag).start()) {
                assertEquals(0, child.waitFor(java.time.Duration.ofMinutes(2)), child.stderr());
                assertEquals(picocli.out(), child.stdout(), flag);
                assertEquals("", child.stderr(), flag + " printed to stderr");
            }
            assertFalse(java.nio.file.Files.readString(loaded).contains("picocli.CommandLine$Model$CommandSpec "),
                    flag + ": the packaged text was printed without building picocli's model");
        }
    }

    @Test
    void help_wins_over_missing_required_options_and_bad_values() {
        InProcessCli.Result r = InProcessCli.run("query", "--from", "yesterday", "--help");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("--tenant"), r.out());
        InProcessCli.Result ingest = InProcessCli.run("ingest", "-h");
        assertEquals(0, ingest.exit(), ingest.err());
        assertTrue(ingest.out().contains("FILE"), ingest.out());
    }

    @Test
    void every_command_prints_the_version_and_no_command_is_still_usage_error() {
        for (List<String> path : commandPaths()) {
            List<String> args = new ArrayList<>(path);
            args.add("--version");
            InProcessCli.Result r = InProcessCli.run(args.toArray(String[]::new));
            assertEquals(0, r.exit(), args + ": " + r.err());
            assertEquals("ourios 0.1.0", r.out().strip(), args.toString());
        }
        InProcessCli.Result none = InProcessCli.run();
        assertEquals(2, none.exit());
        assertFalse(none.err().isBlank());
    }

    /** A run builds only the command it executes; what it prints must not depend on that. */
    @Test
    void the_tree_built_for_a_run_prints_what_the_full_tree_prints() {
        List<List<String>> runs = new ArrayList<>();
        runs.add(List.of("--help"));
        runs.add(List.of());
        runs.add(List.of("--version"));
        runs.add(List.of("qurey"));
        runs.add(List.of("--verbose", "query", "--tenant"));
        runs.add(List.of("query", "--no-such-flag"));
        runs.add(List.of("config", "chek"));
        commandPaths().forEach(path -> {
            List<String> help = new ArrayList<>(path);
            help.add("--help");
            runs.add(help);
        });
        for (List<String> args : runs) {
            String[] argv = args.toArray(String[]::new);
            assertEquals(captured(Main.commandLine(), argv), captured(Main.commandLineFor(argv), argv),
                    "ourios " + String.join(" ", args));
        }
    }

    private static String captured(CommandLine cl, String[] args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        int exit = cl.execute(args);
        return "exit " + exit + "\nout:\n" + out + "\nerr:\n" + err;
    }
}
