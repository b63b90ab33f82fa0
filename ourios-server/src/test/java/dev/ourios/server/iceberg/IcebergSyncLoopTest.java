package dev.ourios.server.iceberg;

import dev.ourios.server.events.EventLog;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.iceberg.IcebergView;
import dev.ourios.iceberg.IcebergWiring;
import dev.ourios.iceberg.PendingPartitions;
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
 * The syncer's schedule and scope, driven by hand: every partition the first time, then only the partitions reported
 * as changed (no sooner than the sync interval after the last sync), every partition again once the reconcile
 * interval has passed, which picks up what nothing reported; a failed sync keeps its partitions pending.
 */
class IcebergSyncLoopTest {
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
    void reportedPartitionsAfterTheIntervalAndEveryPartitionOncePerReconcileInterval() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), START, 4, 3, 10, 5));
        HandClock clock = new HandClock();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ObjectStore store = new LocalObjectStore(dir)) {
            IngestWriter writer = new IngestWriter(store);
            for (int h = 0; h < 4; h++) {
                writer.writeFile(gen.partition("acme", h), gen.file("acme", h, 0));
            }
            IcebergView view = IcebergWiring.view(store, dir.toString());
            PendingPartitions pending = new PendingPartitions(100);
            IcebergSyncLoop loop = new IcebergSyncLoop(IcebergWiring.sync(store, view, clock), pending,
                    new EventLog(new PrintStream(out, true, StandardCharsets.UTF_8), clock), clock,
                    Duration.ofSeconds(10), Duration.ofHours(1));

            assertEquals(Duration.ZERO, loop.untilNext(clock.instant()), "the first sync is due at once");
            loop.syncNow();
            JsonNode first = lastSynced(out);
            assertTrue(first.get("ourios.iceberg.full").asBoolean(), first.toString());
            assertEquals(4, first.get("ourios.iceberg.partitions_read").asInt());
            assertEquals(Duration.ofHours(1), loop.untilNext(clock.instant()), "nothing pending: the reconciliation");

            // Late files in two partitions; one of them is reported.
            PartitionKey reported = gen.partition("acme", 1);
            PartitionKey unreported = gen.partition("acme", 2);
            String reportedKey = writer.writeFile(reported, gen.file("acme", 1, 1)).key();
            String unreportedKey = writer.writeFile(unreported, gen.file("acme", 2, 1)).key();
            pending.changed(reported);
            clock.advance(Duration.ofSeconds(4));
            assertEquals(Duration.ofSeconds(6), loop.untilNext(clock.instant()), "no sooner than the interval");
            clock.advance(Duration.ofSeconds(6));
            assertEquals(Duration.ZERO, loop.untilNext(clock.instant()));
            loop.syncNow();
            JsonNode partial = lastSynced(out);
            assertFalse(partial.get("ourios.iceberg.full").asBoolean(), partial.toString());
            assertEquals(1, partial.get("ourios.iceberg.partitions_read").asInt());
            Set<String> keys = IcebergView.currentFiles(view.table().orElseThrow(), view.location()).keySet();
            assertTrue(keys.contains(reportedKey));
            assertFalse(keys.contains(unreportedKey), "a partition nothing reported waits for the reconciliation");

            // A sync that fails (the reported partition's manifest is unreadable) keeps the partition pending.
            PartitionKey broken = gen.partition("acme", 3);
            String brokenKey = writer.writeFile(broken, gen.file("acme", 3, 1)).key();
            store.putIfAbsent(broken.dataPrefix() + dev.ourios.core.FileNames.manifestName(1), "{".getBytes(StandardCharsets.UTF_8));
            pending.changed(broken);
            clock.advance(Duration.ofSeconds(10));
            assertTrue(loop.syncNow().isEmpty());
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("ourios.iceberg.sync.error"), out.toString());
            assertTrue(pending.any(), "the failed sync's partition stays pending");
            store.delete(broken.dataPrefix() + dev.ourios.core.FileNames.manifestName(1));
            clock.advance(Duration.ofSeconds(10));
            loop.syncNow();
            JsonNode retried = lastSynced(out);
            assertFalse(retried.get("ourios.iceberg.full").asBoolean(), retried.toString());
            assertTrue(IcebergView.currentFiles(view.table().orElseThrow(), view.location()).containsKey(brokenKey));

            clock.advance(Duration.ofHours(1));
            assertEquals(Duration.ZERO, loop.untilNext(clock.instant()), "the reconciliation is due");
            loop.syncNow();
            JsonNode full = lastSynced(out);
            assertTrue(full.get("ourios.iceberg.full").asBoolean(), full.toString());
            assertEquals(4, full.get("ourios.iceberg.partitions_read").asInt());
            assertEquals(1, full.get("ourios.iceberg.files_added").asInt());
            assertTrue(IcebergView.currentFiles(view.table().orElseThrow(), view.location()).containsKey(
                    unreportedKey));
        }
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
