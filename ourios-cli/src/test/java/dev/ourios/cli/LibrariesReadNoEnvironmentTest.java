package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.testkit.Testdata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Library modules read no environment variable and no system property: only the application maps the
 * environment, flags and files to settings, and hands the libraries settings objects. This scans the main sources
 * of every module of the build except the application ({@code ourios-cli}), the harness programs
 * ({@code ourios-bench}, {@code ourios-chaos}) and the test kit (test support, never on a product class path), and
 * fails naming each read it finds. The service ({@code ourios-server}) is a library in this sense: the command line
 * reads its environment (telemetry's too) and starts it with settings records.
 */
class LibrariesReadNoEnvironmentTest {
    /** Modules allowed to read the environment and system properties. */
    private static final Set<String> ALLOWED = Set.of("ourios-cli", "ourios-bench", "ourios-chaos", "ourios-testkit");
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern READ = Pattern.compile("\\bSystem\\s*\\.\\s*(getenv|getProperty|getProperties)\\b"
            + "|\\bBoolean\\s*\\.\\s*getBoolean\\b|\\bInteger\\s*\\.\\s*getInteger\\b|\\bLong\\s*\\.\\s*getLong\\b"
            + "|\\bimport\\s+static\\s+java\\.lang\\.System\\.(getenv|getProperty|getProperties|\\*)\\s*;");
    private static final Pattern COMMENT = Pattern.compile("//[^\\n]*|/\\*.*?\\*/", Pattern.DOTALL);

    @Test
    void no_library_main_source_reads_an_environment_variable_or_a_system_property() throws IOException {
        Path root = Testdata.root().getParent();
        List<String> libraries = new ArrayList<>();
        List<String> reads = new ArrayList<>();
        int files = 0;
        for (String module : modules(root)) {
            Path sources = root.resolve(module).resolve("src/main/java");
            if (ALLOWED.contains(module) || !Files.isDirectory(sources)) {
                continue;
            }
            libraries.add(module);
            try (Stream<Path> all = Files.walk(sources)) {
                for (Path f : all.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    files++;
                    for (String read : reads(Files.readString(f, StandardCharsets.UTF_8))) {
                        reads.add(root.relativize(f) + ": " + read);
                    }
                }
            }
        }
        assertTrue(libraries.containsAll(List.of("ourios-core", "ourios-store", "ourios-compaction",
                "ourios-query", "ourios-server", "ourios-gen")) && files > 100,
                "the scan found the library sources: " + libraries + ", " + files);
        assertEquals(List.of(), reads, "library main sources read the environment or system properties; the "
                + "application (ourios-cli) reads them and passes settings in");
    }

    @Test
    void the_scan_finds_each_kind_of_read_and_ignores_comments_and_strings_of_other_calls() {
        assertEquals(6, reads("""
                class A {
                    String a = System.getenv("X");
                    String b = System.getProperty("y");
                    boolean c = Boolean.getBoolean("z");
                    Integer d = Integer.getInteger("n");
                    Long e = Long.getLong("m");
                    java.util.Map<String, String> f = System . getenv();
                }
                """).size());
        assertEquals(1, reads("import static java.lang.System.getenv;\nclass A {}\n").size());
        assertEquals(List.of(), reads("""
                /** Reads nothing; {@code System.getenv("X")} is the application's job. */
                class A {
                    // System.getProperty("y") would be a read
                    long n = Long.parseLong("1");
                    String s = System.lineSeparator();
                }
                """));
    }

    /** The reads in one source file, comments left out. */
    private static List<String> reads(String source) {
        Matcher m = READ.matcher(COMMENT.matcher(source).replaceAll(" "));
        List<String> found = new ArrayList<>();
        while (m.find()) {
            found.add(m.group().replaceAll("\\s+", " "));
        }
        return found;
    }

    /** Every module the root build names, profiles included. */
    private static List<String> modules(Path root) throws IOException {
        Matcher m = MODULE.matcher(Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8));
        List<String> modules = new ArrayList<>();
        while (m.find()) {
            modules.add(m.group(1).trim());
        }
        return modules;
    }
}
