package dev.ourios.bench.ingest;

import dev.ourios.otlp.OtlpJsonStream;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ingest.ContentNamedIngestWriter;
import dev.ourios.table.ingest.IngestBatcher;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * {@code ourios ingest}'s streaming path in this process: the input decoded a line at a time, batched per partition
 * within the default {@code --batch-bytes}, each batch landed as a content-named ingest file as soon as it is cut.
 * The same steps as the CLI (strict UTF-8 reader, {@link OtlpJsonStream}, {@link IngestBatcher},
 * {@link ContentNamedIngestWriter}), without its per-file report lines.
 */
public final class FileIngest {
    private FileIngest() {
    }

    /** Writes the pool's requests as a Collector-file-exporter file: one OTLP/JSON request per line. */
    public static void write(RequestPool pool, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            for (RequestPool.Request r : pool.requests()) {
                out.write(r.json());
                out.write('\n');
            }
        }
    }

    /** Lands {@code file} for {@code tenant} into a fresh store at {@code storeRoot}. */
    public static Result run(Path file, String tenant, Path storeRoot) throws IOException {
        long t0 = System.nanoTime();
        long[] rows = new long[1];
        try (LocalObjectStore store = new LocalObjectStore(storeRoot)) {
            ContentNamedIngestWriter writer = new ContentNamedIngestWriter(store);
            IngestBatcher batcher = new IngestBatcher(IngestBatcher.DEFAULT_BUDGET_BYTES);
            Consumer<IngestBatcher.Batch> land = b -> {
                try {
                    rows[0] += writer.land(b.partition(), b.rows()).file().rows();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            };
            var utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
            try (Reader r = new BufferedReader(new InputStreamReader(Files.newInputStream(file), utf8), 1 << 16)) {
                OtlpJsonStream.read(tenant, r, (records, line) -> batcher.add(records).forEach(land));
            }
            batcher.drain().forEach(land);
        }
        return new Result(rows[0], Files.size(file), (System.nanoTime() - t0) / 1e9);
    }

    /** Rows landed, input bytes (OTLP/JSON) and wall seconds, store open to store closed. */
    public record Result(long rows, long inputBytes, double seconds) {
        public double recordsPerSecond() {
            return rows / seconds;
        }

        public double mibPerSecond() {
            return inputBytes / seconds / (1 << 20);
        }
    }
}
