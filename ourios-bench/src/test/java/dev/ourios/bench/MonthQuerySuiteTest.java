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
        BenchSetupException layout = assertThrows(BenchSetupException.class, () -> run(List.of("--layouts=weekly")));
        assertEquals("--layouts: unknown layout 'weekly' (hourly, rollup)", layout.getMessage());
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void countsTheMonthAsDuckDbDoesAndReportsItsRequests() throws Exception {
        BuiltCli.assume();

        SuiteReport r = run(List.of("--days=2", "--backends=local,s3", "--warm"));

        assertEquals(List.of("ours month (hourly)", "ours month (rollup)", "ours one partition",
                "duckdb-2t month (hourly)", "duckdb-2t month (rollup)", "ours month (hourly) (s3proxy)",
                "ours month (rollup) (s3proxy)", "ours one partition (s3proxy)", "ours month (hourly)",
                "ours month (rollup)", "ours one partition"),
                r.rows().stream().map(row -> row.get("contender")).toList());
        Map<String, Object> hourly = r.rows().get(0);
        Map<String, Object> rollup = r.rows().get(1);
        long count = ((Number) hourly.get("count")).longValue();
        assertTrue(count > 0, hourly.toString());
        for (int i : new int[] {1, 3, 4, 5, 6}) {
            assertEquals(count, ((Number) r.rows().get(i).get("count")).longValue(), "agrees: " + r.rows().get(i));
        }
        assertEquals(48L, ((Number) hourly.get("partitions")).longValue(), hourly.toString());
        assertEquals(48L, ((Number) hourly.get("files")).longValue(), "one file an hour: " + hourly);
        assertEquals(0L, ((Number) rollup.get("files")).longValue(),
                "the day manifests' covers count the service: no day file read: " + rollup);
        for (int i : new int[] {0, 1, 2, 5, 6, 7}) {
            Map<String, Object> row = r.rows().get(i);
            assertTrue(((Number) row.get("list")).longValue() > 0, row.toString());
            assertTrue(((Number) row.get("get")).longValue() >= ((Number) row.get("files")).longValue(),
                    row.toString());
        }
        for (int i : new int[] {8, 9}) {
            Map<String, Object> warm = r.rows().get(i);
            assertEquals("local, warm (serve)", warm.get("backend"), warm.toString());
            assertEquals(count, ((Number) warm.get("count")).longValue(), "a warm server agrees: " + warm);
            assertTrue(((Number) warm.get("median s")).doubleValue() > 0, warm.toString());
        }
        assertEquals(0L, ((Number) r.rows().get(9).get("files")).longValue(), "warm, no day file read: " + r.rows());
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("warm (serve), ours month (rollup): the month / one "
                + "partition = ")), r.notes().toString());
        assertTrue(String.join(" ", r.shapes()).contains("rollup: 2 live files (1.0 a day)"), r.shapes().toString());
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("local, rollup: the month / one partition = ")),
                r.notes().toString());
    }
}
