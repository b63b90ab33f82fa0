package dev.ourios.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every suite at a tiny size (the CI smoke run): it completes, its report is well-formed (Markdown table, JSON that
 * reads back), and whatever it compares produced the same rows.
 */
class SmokeTest {
    private static final double TINY = 1.0 / 1024;

    @TempDir
    Path work;

    @ParameterizedTest
    // Among the longest tests (1-2 minutes on a loaded 2-core machine): a bound above the 5 m default.
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    @ValueSource(strings = {"d2", "d3", "checksum", "b2post", "rfc0036-2", "scaling", "s3", "query-duckdb", "ingest"})
    void suiteRunsAtSmokeSizeAndReportsWellFormed(String suite) throws Exception {
        List<String> args = suite.equals("scaling") ? List.of("--svg=" + work.resolve("chart.svg"))
                : suite.equals("ingest") ? List.of("--seconds", "2", "--clients", "2") : List.of();
        BenchOptions o = new BenchOptions(suite, TINY, 1, 0, work, Optional.empty(), 64, args);
        SuiteReport r = BenchMain.runByName(suite, o, new PrintStream(PrintStream.nullOutputStream()));

        assertEquals(suite, r.suite());
        assertFalse(r.rows().isEmpty(), "report has rows");
        assertFalse(r.shapes().isEmpty(), "report names its data shape");
        assertTrue(r.command().startsWith("./ourios-bench"), r.command());
        assertTrue(r.machine().cores() > 0);
        SuiteReport back = SuiteReport.fromJson(r.toJson());
        assertEquals(r.rows().size(), back.rows().size());
        String md = r.toMarkdown();
        assertTrue(md.contains("| ") && md.contains("---|"), md);

        for (Map<String, Object> row : r.rows()) {
            if (row.containsKey("rows out") && row.containsKey("rows")) {
                assertEquals(((Number) row.get("rows")).longValue(), ((Number) row.get("rows out")).longValue(),
                        "compared outputs hold every input row: " + row);
            }
        }
        if (suite.equals("b2post") || suite.equals("rfc0036-2")) {
            assertEquals(r.rows().get(0).get("rows"), r.rows().get(1).get("rows"), "same answer before and after");
        }
        if (suite.equals("query-duckdb")) { // the suite itself fails on differing counts; each query has an answer
            for (Map<String, Object> row : r.rows()) {
                assertTrue(((Number) row.get("rows")).longValue() > 0 || row.get("query").toString().contains("window"),
                        "query without rows: " + row);
            }
        }
        if (suite.equals("ingest")) { // every acknowledged record landed; something was acknowledged at all
            for (Map<String, Object> row : r.rows()) {
                long records = ((Number) row.get("records")).longValue();
                assertTrue(records > 0, "nothing ingested: " + row);
                assertTrue(((Number) row.get("rows landed")).longValue() >= records, "records lost: " + row);
            }
        }
        if (suite.equals("scaling")) {
            String svg = Files.readString(work.resolve("chart.svg"));
            assertTrue(svg.startsWith("<svg") && svg.contains("<path"), svg);
        }
    }
}
