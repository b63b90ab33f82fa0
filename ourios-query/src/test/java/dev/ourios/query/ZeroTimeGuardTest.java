package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.read.PartitionMismatchException;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.query.aggregate.CountsOverTime;
import dev.ourios.query.aggregate.CountsRequest;
import dev.ourios.query.aggregate.GroupField;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A row with time_unix_nano 0 takes its effective time from its observed time. In a row group whose observed times
 * the statistics prove inside the hour, such a row passes the time guard and a column test may reject it undecoded;
 * anywhere else it is decoded and checked: a time-0 row observed in another hour fails the query, whatever its
 * other values, when the column tests would have rejected it.
 */
class ZeroTimeGuardTest {
    private static final String TENANT = "t";
    private static final Instant START = Instant.parse("2026-05-01T12:00:00Z");
    private static final long START_NANOS = START.getEpochSecond() * 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void time_zero_rows_count_by_their_observed_time_and_a_misplaced_one_fails_the_query() throws Exception {
        TestStore ts = new TestStore(dir, 21);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of(TENANT), START, 1, 1, 2000, 21));
        PartitionKey p = gen.partition(TENANT, 0);
        List<LogRecord> rows = new ArrayList<>(gen.file(TENANT, 0, 0));
        String service = rows.get(0).serviceName();
        for (int i = 0; i < 40; i++) { // time-0 rows observed inside the hour, errors and not
            rows.add(LogRecord.builder(TENANT).serviceName(service).severityNumber(i % 2 == 0 ? 17 : 9)
                    .timeUnixNano(0).observedTimeUnixNano(START_NANOS + (60L + i * 60) * 1_000_000_000L).build());
        }
        Query errors = Query.tenant(TENANT).severityMin(17);
        CountsRequest request = new CountsRequest(errors, START, START.plusSeconds(3600), Duration.ofMinutes(1),
                List.of(GroupField.parse("service")), 100);
        long expected = rows.stream().filter(r -> r.severityNumber() >= 17).count();
        String good = ts.compacted(p, rows, WriterOptions.compacted(1 << 20).withRowGroupRows(150));
        ts.commit(p, 1, good, List.of(), rows.size());
        for (int threads = 1; threads <= 2; threads++) {
            assertEquals(expected, ts.engine(threads).count(errors).rows());
            assertEquals(expected, new CountsOverTime(ts.engine(threads)).run(request).total());
        }

        // The same hour with one more time-0 row, observed in the next hour: an info line the error test rejects. One
        // row group, so the group holding it also holds errors (no pruning on the severity skips it).
        rows.add(LogRecord.builder(TENANT).serviceName(service).severityNumber(9).timeUnixNano(0)
                .observedTimeUnixNano(START_NANOS + 3700L * 1_000_000_000L).build());
        String bad = ts.compacted(p, rows, WriterOptions.compacted(1 << 20).withRowGroupRows(rows.size()));
        ts.commit(p, 2, bad, List.of(TestStore.name(good)), rows.size());
        for (int threads = 1; threads <= 2; threads++) {
            QueryEngine engine = ts.engine(threads);
            PartitionMismatchException e = assertThrows(PartitionMismatchException.class, () -> engine.count(errors));
            assertTrue(e.getMessage().contains(TestStore.name(bad)), e.getMessage());
            e = assertThrows(PartitionMismatchException.class, () -> new CountsOverTime(engine).run(request));
            assertTrue(e.getMessage().contains(TestStore.name(bad)), e.getMessage());
        }
    }
}
