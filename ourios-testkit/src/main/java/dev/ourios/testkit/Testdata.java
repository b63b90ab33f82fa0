package dev.ourios.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository's {@code testdata/} directory (fixtures read as they are). Found by walking up from the working
 * directory ({@code user.dir}: a module's directory under Maven) to the first directory that holds both
 * {@code pom.xml} and {@code testdata/}, so a clone anywhere uses its own copy; {@code -Dourios.testdata=DIR}
 * overrides the search. A missing file throws: a test that needs test data fails without it, never skips.
 */
public final class Testdata {
    /** System property naming the test data directory explicitly. */
    public static final String PROPERTY = "ourios.testdata";
    static final String DIR = "testdata";

    private Testdata() {
    }

    /** The test data directory. */
    public static Path root() {
        String explicit = System.getProperty(PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            Path p = Path.of(explicit).toAbsolutePath().normalize();
            if (!Files.isDirectory(p)) {
                throw new IllegalStateException("-D" + PROPERTY + "=" + explicit + " is not a directory");
            }
            return p;
        }
        return find(Path.of(System.getProperty("user.dir")));
    }

    static Path find(Path start) {
        for (Path d = start.toAbsolutePath().normalize(); d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve(DIR)) && Files.isRegularFile(d.resolve("pom.xml"))) {
                return d.resolve(DIR);
            }
        }
        throw new IllegalStateException("no " + DIR + "/ directory beside a pom.xml in " + start
                + " or any directory above it (or set -D" + PROPERTY + "=DIR)");
    }

    /** A file under the test data directory, e.g. {@code file("otlp", "reference-sample.jsonl")}. */
    public static Path file(String first, String... more) {
        Path p = root().resolve(Path.of(first, more));
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("test data file missing: " + p);
        }
        return p;
    }

    /** A directory under the test data directory, e.g. {@code dir("reference-writer")}. */
    public static Path dir(String first, String... more) {
        Path p = root().resolve(Path.of(first, more));
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException("test data directory missing: " + p);
        }
        return p;
    }
}
