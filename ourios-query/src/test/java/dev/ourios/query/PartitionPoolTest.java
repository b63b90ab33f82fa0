package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import dev.ourios.testkit.TestSeed;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counts and visits that read several partitions at once ({@link PartitionPool}) fail as a whole when any partition
 * fails, whichever thread reads it, and stop on every thread when the query's thread is interrupted.
 */
class PartitionPoolTest {
    private static final String TENANT = "t";
    private static final Instant START = Instant.parse("2026-05-01T12:00:00Z");
    private static final int HOURS = 6;

    @TempDir
    Path dir;

    @Test
    void a_bad_row_in_any_partition_fails_the_count_and_the_visit() throws Exception {
        long seed = TestSeed.announce(PartitionPoolTest.class);
        Random random = new Random(seed);
        TestStore ts = new TestStore(dir, seed);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of(TENANT), START, HOURS, 1, 400, seed));
        int bad = random.nextInt(HOURS);
        String badFile = null;
        for (int h = 0; h < HOURS; h++) {
            PartitionKey p = gen.partition(TENANT, h);
            List<LogRecord> rows = new ArrayList<>(gen.file(TENANT, h, 0));
            if (h == bad) { // a row of another hour of the window (so no window pruning skips it), among the others
                int other = h == 0 ? 1 : h - 1;
                rows.add(LogRecord.builder(TENANT).serviceName(rows.get(0).serviceName()).severityNumber(9)
                        .timeUnixNano((START.getEpochSecond() + 3600L * other + 5) * 1_000_000_000L).build());
            }
            String out = ts.compacted(p, rows, WriterOptions.compacted(1 << 20).withRowGroupRows(100));
            ts.commit(p, 1, out, List.of(), rows.size());
            if (h == bad) {
                badFile = TestStore.name(out);
            }
        }
        Query q = Query.tenant(TENANT).severityMin(1);
        CountsRequest request = new CountsRequest(q, START, START.plusSeconds(3600L * HOURS), Duration.ofMinutes(1),
                List.of(GroupField.parse("service")), 10);
        for (int threads = 2; threads <= 4; threads++) {
            QueryEngine engine = ts.engine(threads);
            PartitionMismatchException e = assertThrows(PartitionMismatchException.class, () -> engine.count(q),
                    "seed " + seed);
            assertTrue(e.getMessage().contains(badFile), e.getMessage());
            e = assertThrows(PartitionMismatchException.class, () -> new CountsOverTime(engine).run(request),
                    "seed " + seed);
            assertTrue(e.getMessage().contains(badFile), e.getMessage());
        }
    }

    @Test
    void an_interrupted_query_stops_every_partition_thread() throws Exception {
        TestStore ts = new TestStore(dir, 11);
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of(TENANT), START, HOURS, 1, 1500, 11));
        long rows = 0;
        for (int h = 0; h < HOURS; h++) {
            List<LogRecord> hour = gen.file(TENANT, h, 0);
            ts.ingest(gen.partition(TENANT, h), hour);
            rows += hour.size();
        }
        SpinningCondition slow = new SpinningCondition(true); // every row: each thread waits for its interrupt
        Query q = Query.tenant(TENANT).condition(slow);
        CountsRequest request = new CountsRequest(q, START, START.plusSeconds(3600L * HOURS), Duration.ofMinutes(1),
                List.of(), 10);
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        QueryEngine engine = ts.engine(3);
        Thread scan = new Thread(() -> {
            try {
                new CountsOverTime(engine).run(request);
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        scan.start();
        assertTrue(slow.started.await(30, TimeUnit.SECONDS));
        scan.interrupt();
        scan.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(scan.isAlive());
        assertTrue(outcome.get() instanceof InterruptedIOException, String.valueOf(outcome.get()));
        // each of the three threads tests at most a check interval of rows after the interrupt reaches it
        assertTrue(slow.tested.get() <= 3 * 300, slow.tested.get() + " rows tested of " + rows);
        assertEquals(0, engine.helpersRunning(), "a helper of the cancelled query runs on");
    }
}
