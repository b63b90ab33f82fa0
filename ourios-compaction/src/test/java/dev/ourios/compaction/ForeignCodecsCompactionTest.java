package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.parquet.footer.FooterInspector;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.testkit.ForeignParquet;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data partition of DuckDB's Snappy, GZIP and LZ4_RAW files (with an extra column) queries and compacts to the
 * same rows as its twin of DuckDB's ZSTD files, and the output is ZSTD; partitions beside it holding a file with
 * damaged pages, a codec id no Parquet version defines or a schema nested past the stack fail alone, each in one
 * line naming the file, in the same sweep, and a query of them names the file.
 */
class ForeignCodecsCompactionTest {
    /** DuckDB writes the 16- and 8-byte ids as BLOB, which the reader contract refuses: they are left out. */
    private static final String SELECT = "* EXCLUDE (trace_id, span_id), 'duckdb' AS origin";

    @TempDir
    Path dir;

    @Test
    void foreignCodecsCompactAndQueryLikeTheirZstdTwinsAndDamagedFilesFailAlone() throws Exception {
        LocalObjectStore source = new LocalObjectStore(dir.resolve("source"));
        TestStores.generate(source, TestStores.spec(List.of("a"), 4, 3, 400, 21));
        LocalObjectStore foreign = new LocalObjectStore(dir.resolve("foreign"));
        LocalObjectStore twin = new LocalObjectStore(dir.resolve("twin"));
        List<String> codecs = List.of("snappy", "gzip", "lz4");
        PartitionKey first = hour(0);
        List<ObjectInfo> inputs = TestStores.snapshot(source, first).live();
        for (int i = 0; i < inputs.size(); i++) {
            Path from = source.root().resolve(inputs.get(i).key());
            plant(foreign, first, duckdb(from, codecs.get(i % codecs.size())));
            plant(twin, first, duckdb(from, "zstd"));
        }
        Map<PartitionKey, String> hostile = new LinkedHashMap<>();
        for (int h = 1; h <= 3; h++) {
            PartitionKey p = hour(h);
            byte[] good = duckdb(source.root().resolve(TestStores.snapshot(source, p).live().get(0).key()), "lz4");
            plant(foreign, p, good);
            byte[] bad = switch (h) {
                case 1 -> ForeignParquet.withDamagedPages(good);
                case 2 -> ForeignParquet.withCodecId(good, 7, 60, ForeignParquet.columnChunks(good, dir));
                default -> ForeignParquet.deeplyNested(200_000);
            };
            hostile.put(p, plant(foreign, p, bad));
        }

        List<String> queried = TestStores.identities(query(foreign, first));
        assertEquals(TestStores.identities(query(twin, first)), queried, "a query of the files as they are");
        assertEquals(inputs.stream().mapToLong(o -> rowsOf(source, o)).sum(), queried.size());
        assertTrue(query(foreign, first).stream().allMatch(r -> r.extras().containsKey("origin")));

        SweepReport report = TestStores.runner(foreign, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });
        TestStores.runner(twin, dir.resolve("scratch-twin")).sweep(PartitionFilter.all(), r -> { });

        List<ObjectInfo> out = TestStores.snapshot(foreign, first).live();
        assertEquals(1, out.size(), report.toString());
        assertEquals(List.of("ZSTD"), FooterInspector.inspect(foreign, out.get(0).key()).rowGroups().get(0).codecs());
        assertEquals(TestStores.identities(TestStores.liveRows(twin, first)),
                TestStores.identities(TestStores.liveRows(foreign, first)), "compacted");
        assertEquals(queried, TestStores.identities(query(foreign, first)), "a query of the compacted partition");

        List<String> errors = report.partitions().stream().filter(r -> r.error() != null)
                .map(r -> r.error()).toList();
        assertEquals(hostile.size(), errors.size(), errors.toString());
        for (var h : hostile.entrySet()) {
            String name = foreign.describe(h.getValue());
            List<String> lines = errors.stream().filter(e -> e.contains(name)).toList();
            assertEquals(1, lines.size(), name + ": " + errors);
            assertEquals(1, lines.get(0).lines().count(), lines.get(0));
            assertEquals(0, TestStores.snapshot(foreign, h.getKey()).generation(), h.getKey() + " committed");
            IOException e = assertThrows(IOException.class, () -> query(foreign, h.getKey()));
            assertTrue(e.getMessage().contains(name), e.getMessage());
        }
    }

    private static PartitionKey hour(int h) {
        return PartitionKey.ofHour("a", TestStores.HOUR.plusSeconds(3600L * h));
    }

    private static List<LogRecord> query(LocalObjectStore store, PartitionKey p) throws IOException {
        return new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                MeterProvider.noop()).collect(Query.tenant("a").window(p.hourStart(), p.hourStart().plusSeconds(3600)))
                .rows();
    }

    private static long rowsOf(LocalObjectStore store, ObjectInfo o) {
        try {
            return TestStores.readAll(store, o.key()).size();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private byte[] duckdb(Path from, String codec) throws Exception {
        return ForeignParquet.rewritten(from, dir, codec, SELECT);
    }

    private static String plant(LocalObjectStore store, PartitionKey p, byte[] bytes) throws Exception {
        String key = p.dataPrefix() + Uuid7.system().next() + ".parquet";
        Files.createDirectories(store.root().resolve(key).getParent());
        Files.write(store.root().resolve(key), bytes);
        return key;
    }
}
