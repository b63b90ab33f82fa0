package dev.ourios.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The root's usage ({@code ourios --help}), rendered by picocli when the CLI is built and packaged with its classes,
 * so that printing it does not load picocli: building even the summary tree costs a fresh JVM several times what
 * printing a resource does. The packaged text is picocli's own rendering of the same classes, so it cannot drift;
 * without it (classes run from a directory, as in the tests) {@code --help} goes through picocli as every other
 * command does.
 */
public final class RootUsage {
    static final String RESOURCE = "root-usage.txt";

    private RootUsage() {
    }

    /** Writes the rendered usage to the file {@code args[0]}; the build runs this before packaging. */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, render(), StandardCharsets.UTF_8);
    }

    /** What picocli prints for {@code ourios --help}. */
    static String render() {
        return Main.commandLine().getUsageMessage();
    }

    /** Whether {@code args} ask for the root's usage and nothing else. */
    static boolean isRootHelp(String[] args) {
        return args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"));
    }

    /** The usage text packaged with the classes, if the build made it. */
    static Optional<String> packaged() {
        try (InputStream in = RootUsage.class.getResourceAsStream(RESOURCE)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
