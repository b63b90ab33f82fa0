package dev.ourios.bench;

import dev.ourios.core.BodyKind;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Generates the benchmark partitions as ingest files, written by the product's own ingest writer settings. A
 * fixture is cached on disk under a directory named by its shape, so A/B runs and repeated invocations compact the
 * very same bytes; a directory is only trusted when its completion marker exists.
 */
public final class Fixtures {
    /** Benchmarks use one fixed, long-sealed hour. */
    public static final Instant HOUR = Instant.parse("2026-03-01T10:00:00Z");
    public static final String TENANT = "bench";
    /** Compressed bytes per demo-shaped row as the ingest writer lays them out (measured: ~85 B at 37k rows/file). */
    static final double DEMO_BYTES_PER_ROW = 85.0;
    private static final String DONE = "fixture.done";

    private final Path workDir;

    public Fixtures(Path workDir) {
        this.workDir = workDir;
    }

    /**
     * OpenTelemetry-demo-shaped rows ({@link LogGenerator}, 15 services, compressible), {@code files} ingest files
     * of {@code rowsPerFile} rows each in one partition.
     */
    public Fixture demo(int files, int rowsPerFile, long seed) throws IOException {
        String shape = "demo-" + files + "x" + rowsPerFile + "-s" + seed;
        GeneratorSpec spec = GeneratorSpec.of(List.of(TENANT), HOUR, 1, files, rowsPerFile, seed);
        LogGenerator gen = new LogGenerator(spec);
        return build(shape, gen.partition(TENANT, 0), files, f -> gen.stream(TENANT, 0, f));
    }

    /** Rows per file so that {@code files} demo files hold about {@code totalBytes}. */
    public static int demoRowsFor(long totalBytes, int files) {
        return (int) Math.max(100, Math.round(totalBytes / DEMO_BYTES_PER_ROW / files));
    }

    /**
     * The reference implementation's D2 shape: {@code files} files of {@code rowsPerFile} rows, each with a
     * {@code bodyBytes}-byte incompressible (random) body. Other columns come from the demo generator.
     */
    public Fixture incompressible(int files, int rowsPerFile, int bodyBytes, long seed) throws IOException {
        String shape = "ref-" + files + "x" + rowsPerFile + "x" + bodyBytes + "-s" + seed;
        GeneratorSpec spec = GeneratorSpec.of(List.of(TENANT), HOUR, 1, files, rowsPerFile, seed);
        LogGenerator gen = new LogGenerator(spec);
        return build(shape, gen.partition(TENANT, 0), files, f -> new RandomBodies(gen.stream(TENANT, 0, f),
                new SplittableRandom(seed * 31 + f), bodyBytes));
    }

    /** Opens an existing store root (e.g. a compacted copy) as a fixture of its partition's current live set. */
    public static Fixture open(String shape, Path root, PartitionKey partition) throws IOException {
        LocalObjectStore store = new LocalObjectStore(root);
        List<ObjectInfo> live = new TableReader(store, new ManifestCodec()).snapshot(partition).live().stream()
                .sorted(Comparator.comparing(ObjectInfo::name)).toList();
        long rows = 0;
        for (ObjectInfo o : live) {
            rows += Footers.rows(store, o.key());
        }
        return new Fixture(shape, root, store, partition, live, rows);
    }

    /** A fresh, empty directory under the work dir (for copies and outputs). */
    public Path scratch(String name) throws IOException {
        Path p = workDir.resolve(name);
        deleteTree(p);
        Files.createDirectories(p);
        return p;
    }

    private Fixture build(String shape, PartitionKey partition, int files, FileSource source) throws IOException {
        Path root = workDir.resolve("fixtures").resolve(shape);
        if (!Files.exists(root.resolve(DONE))) {
            deleteTree(root);
            Files.createDirectories(root);
            LocalObjectStore store = new LocalObjectStore(root);
            for (int f = 0; f < files; f++) {
                // Names sort in generation order, so a plan's input ordinal is the file index.
                String key = partition.dataPrefix() + String.format("00000000-0000-7000-8000-%012d.parquet", f);
                try (LogFileWriter w = new LogFileWriter(store.create(key), WriterOptions.ingest())) {
                    Iterator<LogRecord> rows = source.rows(f);
                    while (rows.hasNext()) {
                        w.write(rows.next());
                    }
                    w.commit();
                }
            }
            Files.writeString(root.resolve(DONE), shape + "\n");
        }
        return open(shape, root, partition);
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(p)) {
            walk.sorted(Comparator.reverseOrder()).forEach(x -> {
                try {
                    Files.delete(x);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @FunctionalInterface
    private interface FileSource {
        Iterator<LogRecord> rows(int file);
    }

    /** Replaces every row's body with random bytes: the reference's incompressible-body shape. */
    private record RandomBodies(Iterator<LogRecord> rows, SplittableRandom random, int bodyBytes)
            implements Iterator<LogRecord> {
        @Override
        public boolean hasNext() {
            return rows.hasNext();
        }

        @Override
        public LogRecord next() {
            LogRecord r = rows.next();
            byte[] body = new byte[bodyBytes];
            random.nextBytes(body);
            return new LogRecord(r.tenantId(), r.templateId(), r.templateVersion(), r.timeUnixNano(),
                    r.observedTimeUnixNano(), r.effectiveTimeUnixNano(), r.severityNumber(), r.severityText(),
                    r.scopeName(), r.scopeVersion(), r.attributes(), r.droppedAttributesCount(),
                    r.resourceAttributes(), r.traceId(), r.spanId(), r.flags(), r.eventName(), BodyKind.STRING, body,
                    r.params(), r.separators(), r.confidence(), r.lossyFlag(), r.scopeAttributes(),
                    r.resourceSchemaUrl(), r.scopeSchemaUrl(), r.serviceName(), r.extras());
        }
    }
}
