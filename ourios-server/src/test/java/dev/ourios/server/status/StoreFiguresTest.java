package dev.ourios.server.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPolicy;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.LiveFiles;
import dev.ourios.store.CountingObjectStore;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store page's figures: per tenant hours, files, bytes and small files, the backlog of sealed partitions, and
 * the bound on work: one walk per {@link StoreFigures#MAX_AGE}, however many requests.
 */
class StoreFiguresTest {
    private static final Instant START = Instant.parse("2026-11-01T10:00:00Z");

    @TempDir
    Path dir;

    @Test
    void figures_per_tenant_the_backlog_and_one_walk_per_max_age() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme", "globex"), START, 3, 2, 10, 5));
        HandClock clock = new HandClock(START.plus(Duration.ofHours(5)));
        try (LocalObjectStore local = new LocalObjectStore(dir)) {
            IngestWriter writer = new IngestWriter(local);
            long acmeBytes = 0;
            for (int h = 0; h < 3; h++) {
                for (int f = 0; f < 2; f++) {
                    acmeBytes += writer.writeFile(gen.partition("acme", h), gen.file("acme", h, f)).bytes();
                }
            }
            writer.writeFile(gen.partition("globex", 0), gen.file("globex", 0, 0));
            CountingObjectStore store = new CountingObjectStore(local);
            TableLayout layout = new TableLayout(store);
            StoreFigures figures = new StoreFigures(layout, new LiveFiles(store, layout,
                    new TableReader(store, new ManifestCodec())),
                    new CompactionPolicy(CompactionOptions.defaults(dir.resolve("scratch"))), clock);

            StoreFigures.Snapshot first = figures.current();
            assertEquals(List.of(new StoreFigures.Tenant("acme", 3, 6, acmeBytes, 6),
                    new StoreFigures.Tenant("globex", 1, 1, first.tenants().get(1).bytes(), 1)), first.tenants());
            // every acme hour holds two ingest files; globex's one hour holds one ingest file, not compacted either
            assertEquals(4, first.waiting());
            assertEquals(List.of("acme 2026-11-01T10", "acme 2026-11-01T11", "acme 2026-11-01T12",
                    "globex 2026-11-01T10"), first.waitingNamed());
            assertEquals(1.0, first.tenants().get(0).smallFileShare());

            long lists = store.requests().list();
            clock.now = clock.now.plus(StoreFigures.MAX_AGE.minusSeconds(1));
            for (int i = 0; i < 100; i++) {
                assertSame(first, figures.current(), "within the max age the last walk answers");
            }
            assertEquals(lists, store.requests().list(), "no listing within the max age");
            clock.now = clock.now.plusSeconds(1);
            StoreFigures.Snapshot second = figures.current();
            assertEquals(clock.now, second.takenAt());
            assertEquals(2 * lists, store.requests().list(), "one walk again, the same size");
        }
    }

    @Test
    void an_hour_not_yet_sealed_is_not_backlog() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), START, 1, 2, 10, 5));
        // the hour ended 10 minutes ago: within the 15-minute grace, compaction does not take it yet
        HandClock clock = new HandClock(START.plus(Duration.ofMinutes(70)));
        try (LocalObjectStore store = new LocalObjectStore(dir)) {
            IngestWriter writer = new IngestWriter(store);
            writer.writeFile(gen.partition("acme", 0), gen.file("acme", 0, 0));
            writer.writeFile(gen.partition("acme", 0), gen.file("acme", 0, 1));
            TableLayout layout = new TableLayout(store);
            StoreFigures figures = new StoreFigures(layout, new LiveFiles(store, layout,
                    new TableReader(store, new ManifestCodec())),
                    new CompactionPolicy(CompactionOptions.defaults(dir.resolve("scratch"))), clock);
            assertEquals(0, figures.current().waiting());
            assertEquals(2, figures.current().tenants().get(0).liveFiles());
        }
    }

    private static final class HandClock extends Clock {
        Instant now;

        HandClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
