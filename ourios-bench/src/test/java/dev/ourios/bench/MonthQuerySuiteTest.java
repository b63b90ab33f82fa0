package dev.ourios.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The month-query suite through the real launcher, two days at smoke size, on local disk and s3proxy. */
class MonthQuerySuiteTest {
    @TempDir
    Path work;

    private SuiteReport run(List<String> args) throws Exception {
        BenchOptions o = new BenchOptions("month-query", BenchOptions.SMOKE, 1, 0, work, Optional.empty(), 64, args);
        return BenchMain.run(new MonthQuerySuite(), o, new PrintStream(PrintStream.nullOutputStream()));
    }

    @Test
    void refusesABadDayCountOrBackendInOneLine() {
        BenchSetupException days = assertThrows(BenchSetupException.class, () -> run(List.of("--days=0")));
        assertEquals("--days: expected a number of days from 1 to 366, got '0'", days.getMessage());
        BenchSetupException backend = assertThrows(BenchSetupException.class, () -> run(List.of("--backends=gcs")));
        assertEquals("--backends: unknown backend 'gcs' (local, s3)", backend.getMessage());
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void countsTheMonthAsDuckDbDoesAndReportsItsRequests() throws Exception {
        BuiltCli.assume();

        SuiteReport r = run(List.of("--days=2", "--backends=local,s3"));

        assertEquals(List.of("ours month", "ours one partition", "duckdb-2t month", "ours month (s3proxy)",
                "ours one partition (s3proxy)"), r.rows().stream().map(row -> row.get("contender")).toList());
        Map<String, Object> month = r.rows().get(0);
        long count = ((Number) month.get("count")).longValue();
        assertTrue(count > 0, month.toString());
        assertEquals(count, ((Number) r.rows().get(2).get("count")).longValue(), "DuckDB agrees");
        assertEquals(count, ((Number) r.rows().get(3).get("count")).longValue(), "the S3 copy agrees");
        assertEquals(48L, ((Number) month.get("partitions")).longValue(), month.toString());
        for (Map<String, Object> row : List.of(month, r.rows().get(1), r.rows().get(3), r.rows().get(4))) {
            assertTrue(((Number) row.get("list")).longValue() > 0, row.toString());
            assertTrue(((Number) row.get("get")).longValue() >= ((Number) row.get("files")).longValue(),
                    row.toString());
        }
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("local: the month / one partition = ")),
                r.notes().toString());
    }
}
