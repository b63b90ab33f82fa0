package dev.ourios.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.cli.SweepLoop;
import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.gen.GeneratorSpec;
import dev.ourios.core.gen.LogGenerator;
import dev.ourios.iceberg.IcebergView;
import dev.ourios.iceberg.IcebergWiring;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ingest.IngestWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sync after a sweep reads every partition the first time, then only the partitions the sweep committed, and
 * every partition again once the reconcile interval has passed, which picks up what no sweep committed.
 */
class IcebergSyncEventsTest {
    static final Instant START = Instant.parse("2026-07-01T00:00:00Z");

    @TempDir
    Path dir;

    /** A clock the test moves by hand. */
    private static final class HandClock extends Clock {
        private Instant now = Instant.parse("2026-12-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void partialAfterEachSweepAndFullOncePerInterval() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), START, 4, 3, 10, 5));
        HandClock clock = new HandClock();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ObjectStore store = new LocalObjectStore(dir)) {
            IngestWriter writer = new IngestWriter(store);
            for (int h = 0; h < 4; h++) {
                writer.writeFile(gen.partition("acme", h), gen.file("acme", h, 0));
            }
            IcebergView view = IcebergWiring.view(store, dir.toString());
            SweepLoop.Listener none = new SweepLoop.Listener() {
                @Override
                public void partition(PartitionResult result) {
                }

                @Override
                public void finished(long sweep, SweepReport report) {
                }
            };
            IcebergSyncEvents events = new IcebergSyncEvents(none, IcebergWiring.sync(store, view, clock),
                    new EventLog(new PrintStream(out, true, StandardCharsets.UTF_8), clock), clock, Duration.ofHours(1));

            events.finished(1, report());
            JsonNode first = lastSynced(out);
            assertTrue(first.get("ourios.iceberg.full").asBoolean(), first.toString());
            assertEquals(4, first.get("ourios.iceberg.partitions_read").asInt());

            // Late files in two partitions; the sweep reports one of them as committed.
            PartitionKey committed = gen.partition("acme", 1);
            PartitionKey unreported = gen.partition("acme", 2);
            String committedKey = writer.writeFile(committed, gen.file("acme", 1, 1)).key();
            String unreportedKey = writer.writeFile(unreported, gen.file("acme", 2, 1)).key();
            clock.advance(Duration.ofMinutes(5));
            events.finished(2, report(committed));
            JsonNode partial = lastSynced(out);
            assertFalse(partial.get("ourios.iceberg.full").asBoolean(), partial.toString());
            assertEquals(1, partial.get("ourios.iceberg.partitions_read").asInt());
            Set<String> keys = IcebergView.currentFiles(view.table().orElseThrow(), view.location()).keySet();
            assertTrue(keys.contains(committedKey));
            assertFalse(keys.contains(unreportedKey), "a partition no sweep committed waits for the reconciliation");

            clock.advance(Duration.ofHours(1));
            events.finished(3, report());
            JsonNode full = lastSynced(out);
            assertTrue(full.get("ourios.iceberg.full").asBoolean(), full.toString());
            assertEquals(4, full.get("ourios.iceberg.partitions_read").asInt());
            assertEquals(1, full.get("ourios.iceberg.files_added").asInt());
            assertTrue(IcebergView.currentFiles(view.table().orElseThrow(), view.location()).containsKey(
                    unreportedKey));
        }
    }

    private static SweepReport report(PartitionKey... committed) {
        List<PartitionResult> results = java.util.Arrays.stream(committed)
                .map(p -> new PartitionResult(p, PartitionResult.Result.COMMITTED, 0, 0, 0, 0, 1, null, List.of(),
                        null, null, 0))
                .toList();
        return new SweepReport(results, 0, 0, List.of(), 0);
    }

    /** The attributes of the last {@code ourios.iceberg.synced} event. */
    private static JsonNode lastSynced(ByteArrayOutputStream out) throws Exception {
        JsonNode last = null;
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            JsonNode n = new ObjectMapper().readTree(line);
            if ("ourios.iceberg.synced".equals(n.get("EventName").asText())) {
                last = n.get("Attributes");
            }
        }
        if (last == null) {
            throw new AssertionError("no ourios.iceberg.synced event in: " + out);
        }
        return last;
    }
}
