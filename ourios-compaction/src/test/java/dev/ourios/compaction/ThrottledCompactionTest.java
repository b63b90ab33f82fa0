package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.IoRates;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.PartitionFilter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction under {@code --max-write-rate} / {@code --max-read-rate}, on one real partition copied into two stores:
 * the throttled run moves its bytes no faster than the rate (plus the one-second burst), and writes the same bytes
 * as the unthrottled run. A bound check with margin, not a speed measurement: a slow machine only makes it pass
 * more easily.
 */
class ThrottledCompactionTest {
    private static final PartitionKey P = PartitionKey.ofHour("acme", TestStores.HOUR);

    @TempDir
    Path dir;

    @Test
    void a_low_write_rate_bounds_the_output_bytes_per_second_and_changes_no_byte() throws Exception {
        Path source = dir.resolve("source");
        try (ObjectStore store = new LocalObjectStore(source)) {
            TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 8, 2000, 11));
        }
        copyTree(source, dir.resolve("throttled"));

        byte[] unthrottled = compactAndReadOutput(source, IoRates.UNLIMITED).content();
        // A rate a third of the output: with a one-second burst, the sweep needs at least two seconds.
        long rate = Math.max(1, unthrottled.length / 3);
        Run throttled = compactAndReadOutput(dir.resolve("throttled"), new IoRates(0, rate));

        double seconds = throttled.nanos() / 1e9;
        long burst = rate;
        assertTrue(throttled.content().length <= 1.1 * (rate * seconds + burst),
                throttled.content().length + " B written in " + seconds + " s at " + rate + " B/s");
        assertArrayEquals(unthrottled, throttled.content(), "throttling changes when bytes are written, not which");
    }

    @Test
    void a_low_read_rate_bounds_the_bytes_read_per_second() throws Exception {
        Path source = dir.resolve("source");
        try (ObjectStore store = new LocalObjectStore(source)) {
            TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 4, 1000, 12));
        }
        long inputBytes;
        try (ObjectStore store = new LocalObjectStore(source)) {
            inputBytes = TestStores.snapshot(store, P).live().stream().mapToLong(ObjectInfo::size).sum();
        }
        // The sweep reads about its inputs' size (the columns it needs, footers): at a quarter of that per second,
        // with a one-second burst, it spends about three seconds waiting.
        long rate = Math.max(1, inputBytes / 4);
        Run throttled = compactAndReadOutput(source, new IoRates(rate, 0));

        double seconds = throttled.nanos() / 1e9;
        long read = throttled.bytesRead();
        assertTrue(read > 2 * rate, "the sweep read past its burst: " + read + " B");
        assertTrue(read <= 1.1 * (rate * seconds + rate), read + " B read in " + seconds + " s at " + rate + " B/s");
    }

    /** The compacted file's bytes, the sweep's wall time, and the bytes its steps read from the store. */
    private record Run(byte[] content, long nanos, long bytesRead) {
    }

    private Run compactAndReadOutput(Path root, IoRates rates) throws IOException {
        try (ObjectStore store = new LocalObjectStore(root)) {
            CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withIoRates(rates);
            long start = System.nanoTime();
            SweepReport report = TestStores.runner(store, dir.resolve("scratch"), opts, MeterProvider.noop())
                    .sweep(PartitionFilter.all(), r -> { });
            long nanos = System.nanoTime() - start;
            assertEquals(1, report.count(PartitionResult.Result.COMMITTED), report.toString());
            List<ObjectInfo> live = TestStores.snapshot(store, P).live();
            assertEquals(1, live.size(), live.toString());
            long read = report.partitions().get(0).requests().orElseThrow().getBytes();
            return new Run(store.readAllBytes(live.get(0).key()), nanos, read);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            paths.forEach(p -> {
                try {
                    Files.copy(p, to.resolve(from.relativize(p).toString()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
