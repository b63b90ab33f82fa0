package dev.ourios.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cold-cli suite through the real launcher at smoke size (it needs the CLI jar, which the reactor builds before
 * this module), and its one-line refusals when the launcher or the jar is missing.
 */
class ColdCliSuiteTest {
    @TempDir
    Path work;

    private BenchOptions options() {
        return new BenchOptions("cold-cli", BenchOptions.SMOKE, 1, 0, work, Optional.empty(), 64, List.of());
    }

    private SuiteReport run(ColdCliSuite suite) throws Exception {
        return BenchMain.run(suite, options(), new PrintStream(PrintStream.nullOutputStream()));
    }

    @Test
    void withoutALauncherTheSuiteNamesTheProperty() {
        BenchSetupException e = assertThrows(BenchSetupException.class, () -> run(new ColdCliSuite(() -> null)));
        assertTrue(e.getMessage().contains("-Dourios.launcher"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void aLauncherWithoutItsJarNamesTheJarAndTheBuild() throws Exception {
        Path launcher = Files.createFile(work.resolve("ourios"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        BenchSetupException e = assertThrows(BenchSetupException.class,
                () -> run(new ColdCliSuite(launcher::toString)));
        assertTrue(e.getMessage().startsWith(work.resolve("ourios-cli/target/ourios.jar") + " not found"),
                e.getMessage());
        assertTrue(e.getMessage().contains("mvn "), e.getMessage());
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void runsThroughTheRealLauncherAndBothSidesAgree() throws Exception {
        BuiltCli.assume();

        SuiteReport r = run(new ColdCliSuite());

        assertEquals("cold-cli", r.suite());
        assertEquals(List.of("ourios compact", "duckdb-2t COPY", "ourios --help", "ourios query --count",
                "duckdb-2t count", ColdCliSuite.SEARCH_OURS, ColdCliSuite.SEARCH_DUCK, ColdCliSuite.STATS_OURS,
                ColdCliSuite.STATS_DUCK),
                r.rows().stream().map(row -> row.get("contender")).toList());
        Map<String, Object> compact = r.rows().get(0);
        Map<String, Object> copy = r.rows().get(1);
        long generated = ColdCliSuite.FILES * Math.round(ColdCliSuite.FULL_ROWS_PER_FILE * BenchOptions.SMOKE);
        assertEquals(generated, ((Number) compact.get("rows")).longValue(), compact.toString());
        assertEquals(generated, ((Number) copy.get("rows")).longValue(), copy.toString());
        long ours = ((Number) r.rows().get(3).get("rows")).longValue();
        assertTrue(ours > 0, "the count matched rows: " + r.rows().get(3));
        assertEquals(ours, ((Number) r.rows().get(4).get("rows")).longValue());
        long found = ((Number) r.rows().get(5).get("rows")).longValue();
        assertTrue(found > 0, "the search found its word: " + r.rows().get(5));
        assertEquals(found, ((Number) r.rows().get(6).get("rows")).longValue(), "DuckDB's twin counts the same");
        assertTrue(((Number) r.rows().get(5).get("ours / duckdb")).doubleValue() > 0);
        long errors = ((Number) r.rows().get(7).get("rows")).longValue();
        assertTrue(errors > 0, "the counts per minute counted rows: " + r.rows().get(7));
        assertEquals(errors, ((Number) r.rows().get(8).get("rows")).longValue(), "DuckDB's per-minute counts agree");
        assertTrue(((Number) compact.get("ours / duckdb")).doubleValue() > 0);
        SuiteReport back = SuiteReport.fromJson(r.toJson());
        assertEquals(r.rows().size(), back.rows().size());
        assertTrue(r.toMarkdown().contains("| cold compaction | ourios compact |"), r.toMarkdown());
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("class-data archive")), r.notes().toString());
    }
}
