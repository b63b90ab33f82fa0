package dev.ourios.query;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.SortKey;
import dev.ourios.core.Uuid7;
import dev.ourios.parquet.read.FooterCache;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestKeys;
import dev.ourios.table.Retired;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A real local store in a temp directory, with helpers to land ingest files, compacted files and manifests. */
final class TestStore {
    final Path root;
    final LocalObjectStore store;
    final TableLayout layout;
    final TableReader tables;
    /** Shared by every engine of this store (a serving process keeps one engine, and so one cache, for its life). */
    final FooterCache footers;
    private final Uuid7 uuids;
    private final ManifestCodec codec = new ManifestCodec();

    TestStore(Path root, long seed) {
        this.root = root;
        this.store = new LocalObjectStore(root);
        this.layout = new TableLayout(store);
        this.tables = new TableReader(store, codec);
        this.footers = new FooterCache(FooterCache.DEFAULT_MAX_BYTES);
        this.uuids = new Uuid7(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), new Random(seed));
    }

    /** An engine whose footer cache is this store's: its queries see footers earlier engines' queries kept. */
    QueryEngine engine() {
        return new QueryEngine(store, layout, tables, MeterProvider.noop(), footers);
    }

    /** An engine reading through {@code through}, a wrapper of this store (its own layout, tables and footers). */
    QueryEngine engine(ObjectStore through) {
        return new QueryEngine(through, new TableLayout(through), new TableReader(through, codec),
                MeterProvider.noop(), new FooterCache(FooterCache.DEFAULT_MAX_BYTES));
    }

    /** An engine with {@code scanThreads} that shares a file between threads however little of it is left. */
    QueryEngine engine(int scanThreads) {
        return new QueryEngine(store, layout, tables, MeterProvider.noop(), footers, new ScanThreads(scanThreads, 0));
    }

    LiveFiles liveFiles() {
        return new LiveFiles(store, layout, tables);
    }

    /** Writes an ingest file into the partition; returns its key. */
    String ingest(PartitionKey p, List<LogRecord> rows) throws IOException {
        return write(p.dataPrefix() + uuids.next() + ".parquet", rows, WriterOptions.ingest());
    }

    String ingest(PartitionKey p, List<LogRecord> rows, WriterOptions opts) throws IOException {
        return write(p.dataPrefix() + uuids.next() + ".parquet", rows, opts);
    }

    /** Writes a compacted-style file (sorted by service, effective time) not yet named by any manifest. */
    String compacted(PartitionKey p, List<LogRecord> rows, WriterOptions opts) throws IOException {
        List<LogRecord> sorted = new ArrayList<>(rows);
        sorted.sort(SortKey.RECORD_ORDER);
        return write(p.dataPrefix() + uuids.next() + ".compacted.parquet", sorted, opts);
    }

    String write(String key, List<LogRecord> rows, WriterOptions opts) throws IOException {
        try (LogFileWriter w = new LogFileWriter(store.create(key), opts)) {
            for (LogRecord r : rows) {
                w.write(r);
            }
            w.commit();
        }
        return key;
    }

    /** Commits generation {@code gen}: files = [output], retired = inputs (which stay present until GC). */
    void commit(PartitionKey p, long gen, String outputKey, List<String> inputKeys, long rows) throws IOException {
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        List<String> inputs = inputKeys.stream().map(TestStore::name).sorted().toList();
        List<Retired> retired = inputs.stream().map(n -> new Retired(n, at)).toList();
        Manifest m = Manifest.of(gen, List.of(name(outputKey)), retired,
                new CommitRecord(at, inputs, name(outputKey), rows, 0, 0, "test"));
        String key = ManifestKeys.key(p, gen);
        if (!store.putIfAbsent(key, codec.encode(key, m))) {
            throw new IllegalStateException(key + " exists");
        }
    }

    static String name(String key) {
        return key.substring(key.lastIndexOf('/') + 1);
    }
}
