package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestKeys;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Shared fixtures for compaction tests: generated ingest files, sweeps and live-set reads, all on real files. */
public final class TestStores {
    public static final Instant HOUR = Instant.parse("2026-11-01T10:00:00Z");
    /** A plan clock long after every test hour: everything is sealed. */
    public static final Clock LATER = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);

    private TestStores() {
    }

    public static GeneratorSpec spec(List<String> tenants, int hours, int files, int rows, long seed) {
        return GeneratorSpec.of(tenants, HOUR, hours, files, rows, seed);
    }

    /** Lands every file of the spec as an ingest file. */
    public static void generate(ObjectStore store, GeneratorSpec spec) throws IOException {
        LogGenerator gen = new LogGenerator(spec);
        IngestWriter w = new IngestWriter(store);
        for (String t : spec.tenants()) {
            for (int h = 0; h < spec.hours(); h++) {
                for (int f = 0; f < spec.filesPerHour(); f++) {
                    w.writeFile(gen.partition(t, h), gen.file(t, h, f));
                }
            }
        }
    }

    public static SweepRunner runner(ObjectStore store, Path scratch, CompactionOptions opts, MeterProvider meters) {
        return CompactionWiring.sweepRunner(SweepSettings.of(store, opts).withPlanClock(LATER).withMeters(meters));
    }

    public static SweepRunner runner(ObjectStore store, Path scratch) {
        return runner(store, scratch, CompactionOptions.defaults(scratch), MeterProvider.noop());
    }

    public static PartitionSnapshot snapshot(ObjectStore store, PartitionKey p) throws IOException {
        return new TableReader(store, new ManifestCodec()).snapshot(p);
    }

    /** Every row of the partition's live set, in live-file order. */
    public static List<LogRecord> liveRows(ObjectStore store, PartitionKey p) throws IOException {
        List<LogRecord> rows = new ArrayList<>();
        for (ObjectInfo o : snapshot(store, p).live()) {
            rows.addAll(readAll(store, o.key()));
        }
        return rows;
    }

    public static List<LogRecord> readAll(ObjectStore store, String key) throws IOException {
        List<LogRecord> rows = new ArrayList<>();
        try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all())) {
            LogRecord rec;
            while ((rec = r.read()) != null) {
                rows.add(rec);
            }
        }
        return rows;
    }

    /** Source-column identity of a row (derived columns excluded), for multiset comparisons. */
    public static String identity(LogRecord r) {
        RowChecksum c = new RowChecksum();
        c.add(r);
        return c.value();
    }

    public static List<String> identities(List<LogRecord> rows) {
        return rows.stream().map(TestStores::identity).sorted().toList();
    }

    /** Commits the hour's next generation naming the same files (no row moves), which voids the day's cover of it. */
    public static void voidCoverOf(ObjectStore store, PartitionKey hour) throws IOException {
        TableReader reader = new TableReader(store, new ManifestCodec());
        long g = reader.hourSnapshot(hour).generation();
        Manifest current = reader.readManifest(hour, g);
        Manifest next = new Manifest(Manifest.FORMAT, g + 1, current.files(), current.retired(), null);
        String key = ManifestKeys.key(hour, g + 1);
        if (!store.putIfAbsent(key, new ManifestCodec().encode(key, next))) {
            throw new IllegalStateException(key + " exists: the hour moved on");
        }
    }
}
