package dev.ourios.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The CLI as a user starts it: the {@code ourios} launcher script at the repository root, the shaded jar it runs
 * ({@code ourios-cli/target/ourios.jar}) and the class-data archive beside the jar, which the launcher passes to the
 * JVM when it exists. {@code ourios-bench.sh} names the launcher with {@code -Dourios.launcher}.
 */
record CliLauncher(Path launcher, Path jar, Path archive) {
    static final String PROPERTY = "ourios.launcher";

    /** The launcher at {@code path} (the value of {@value #PROPERTY}), checked to be there and built. */
    static CliLauncher locate(String path) throws BenchSetupException {
        if (path == null || path.isBlank()) {
            throw new BenchSetupException("the CLI launcher is not named: run the suite through ./ourios-bench.sh, "
                    + "or pass -D" + PROPERTY + "=PATH_TO/ourios");
        }
        Path launcher = Path.of(path).toAbsolutePath().normalize();
        if (!Files.isRegularFile(launcher) || !Files.isExecutable(launcher)) {
            throw new BenchSetupException("-D" + PROPERTY + ": " + launcher + " is not an executable file");
        }
        Path target = launcher.getParent().resolve("ourios-cli").resolve("target");
        Path jar = target.resolve("ourios.jar");
        if (!Files.isRegularFile(jar)) {
            throw new BenchSetupException(jar + " not found; build the CLI with: mvn -B -o -q -DskipTests package "
                    + "-pl ourios-cli,ourios-bench -am");
        }
        return new CliLauncher(launcher, jar, target.resolve("ourios.jsa"));
    }

    /** Whether the launcher will start the JVM with the class-data archive (it does when the archive exists). */
    boolean archivePresent() {
        return Files.isRegularFile(archive);
    }

    /** The command line {@code ourios ARGS...}. */
    List<String> command(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(launcher.toString());
        cmd.addAll(List.of(args));
        return cmd;
    }
}
