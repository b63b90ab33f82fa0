package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestException;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input planted among good partitions: each bad partition fails alone with one error line naming the
 * partition and the object at fault, every other partition compacts, and nothing anywhere is deleted, not by the
 * sweep and not by a GC with no grace.
 */
class HostileInputTest {
    @TempDir
    Path dir;

    /** Tenant "a" hours 0..n-1 get the bad objects; tenant "good" compacts beside them. */
    private LocalObjectStore store(int badHours) throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("a"), badHours, 3, 50, 11));
        TestStores.generate(store, TestStores.spec(List.of("good"), 1, 3, 50, 12));
        return store;
    }

    private static PartitionKey hour(String tenant, int h) {
        return PartitionKey.ofHour(tenant, TestStores.HOUR.plusSeconds(3600L * h));
    }

    private static String plant(LocalObjectStore store, PartitionKey p, byte[] bytes) throws Exception {
        String key = p.dataPrefix() + Uuid7.system().next() + ".parquet";
        Path f = store.root().resolve(key);
        Files.write(f, bytes);
        return key;
    }

    /** Every file under the store with its size: "nothing deleted" means this map only grows. */
    private static Map<String, Long> files(LocalObjectStore store) throws Exception {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(store.root())) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                out.put(store.root().relativize(f).toString(), Files.size(f));
            }
        }
        return out;
    }

    /**
     * One sweep, then GC with no grace. Every partition in {@code bad} must error with one line naming it and its
     * fragment, everything else must commit, and no file that existed before may be gone.
     */
    private static void assertFailsAloneAndNothingDeleted(LocalObjectStore store, Path scratch,
            Map<PartitionKey, String> bad) throws Exception {
        Map<String, Long> before = files(store);
        SweepReport report = TestStores.runner(store, scratch).sweep(PartitionFilter.all(), r -> { });
        for (Map.Entry<PartitionKey, String> e : bad.entrySet()) {
            PartitionResult r = report.partitions().stream().filter(x -> x.partition().equals(e.getKey()))
                    .findFirst().orElseThrow(() -> new AssertionError("no result for " + e.getKey() + ": " + report));
            assertEquals(PartitionResult.Result.ERROR, r.result(), r.toString());
            assertFalse(r.error().contains("\n"), "one line: " + r.error());
            assertTrue(r.error().contains(e.getKey().hourPath()) && r.error().contains(e.getValue()),
                    "names the partition and " + e.getValue() + ": " + r.error());
        }
        long others = report.partitions().stream().filter(r -> !bad.containsKey(r.partition())).count();
        assertEquals(others, report.count(PartitionResult.Result.COMMITTED), "every other partition compacts: "
                + report);
        assertTrue(others > 0);
        TableReader reader = new TableReader(store, new ManifestCodec());
        new GarbageCollector(store, new TableLayout(store), reader, new GcOptions(Duration.ZERO, false),
                Clock.offset(Clock.systemUTC(), Duration.ofHours(1))).run(PartitionFilter.all());
        // Exactly as they were: nothing deleted, nothing committed, no output or temp file left behind.
        assertEquals(inBad(before, bad), inBad(files(store), bad), "bad partitions are left exactly as they were");
    }

    private static Map<String, Long> inBad(Map<String, Long> files, Map<PartitionKey, String> bad) {
        Map<String, Long> out = new TreeMap<>(files);
        out.keySet().removeIf(k -> bad.keySet().stream().noneMatch(p -> k.startsWith(p.dataPrefix())));
        return out;
    }

    @Test
    void zero_byte_truncated_random_and_foreign_schema_files_fail_only_their_partition() throws Exception {
        LocalObjectStore store = store(4);
        Random rnd = new Random(8);
        Map<PartitionKey, String> bad = new LinkedHashMap<>();
        String empty = plant(store, hour("a", 0), new byte[0]);
        bad.put(hour("a", 0), name(empty));
        // A real ingest file of the partition, cut inside its footer.
        String good = TestStores.snapshot(store, hour("a", 1)).live().get(0).key();
        byte[] whole = Files.readAllBytes(store.root().resolve(good));
        String cut = plant(store, hour("a", 1), Arrays.copyOf(whole, whole.length - 12));
        bad.put(hour("a", 1), name(cut));
        byte[] noise = new byte[5000];
        rnd.nextBytes(noise);
        String random = plant(store, hour("a", 2), noise);
        bad.put(hour("a", 2), name(random));
        String foreign = hour("a", 3).dataPrefix() + Uuid7.system().next() + ".parquet";
        writeForeignSchema(store.root().resolve(foreign));
        bad.put(hour("a", 3), name(foreign));

        assertFailsAloneAndNothingDeleted(store, dir.resolve("scratch"), bad);
    }

    @Test
    void rows_of_another_tenant_or_hour_fail_their_partition_naming_file_row_and_keys() throws Exception {
        LocalObjectStore store = store(2);
        Map<PartitionKey, String> bad = new LinkedHashMap<>();
        // An outside writer put tenant "good"'s rows, and hour 1's rows, into tenant a's hour-0 and hour-1
        // directories; IngestWriter refuses to, so the file is written beside it.
        List<LogRecord> otherTenant = new LogGenerator(TestStores.spec(List.of("good"), 1, 1, 5, 3)).file("good", 0,
                0);
        String k1 = writeRaw(store, hour("a", 0), otherTenant);
        bad.put(hour("a", 0), name(k1));
        List<LogRecord> otherHour = new LogGenerator(TestStores.spec(List.of("a"), 3, 1, 5, 4)).file("a", 2, 0);
        String k2 = writeRaw(store, hour("a", 1), otherHour);
        bad.put(hour("a", 1), name(k2));

        assertFailsAloneAndNothingDeleted(store, dir.resolve("scratch"), bad);
        SweepReport again = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });
        String e0 = again.partitions().stream().filter(r -> r.partition().equals(hour("a", 0))).findFirst()
                .orElseThrow().error();
        assertTrue(e0.contains("row 0") && e0.contains("'good'") && e0.contains("'a'"), e0);
    }

    @Test
    void hostile_manifests_fail_their_partition_for_sweep_gc_and_query_and_nothing_is_deleted() throws Exception {
        LocalObjectStore store = store(4);
        Map<PartitionKey, String> bad = new LinkedHashMap<>();
        String m = "manifest.00000000000000000001.json";
        String live0 = name(TestStores.snapshot(store, hour("a", 1)).live().get(0).key());
        Map<PartitionKey, String> content = new LinkedHashMap<>();
        content.put(hour("a", 0), "{\"format\":1,\"generation\":1,\"files\":[\u0000garbage");
        content.put(hour("a", 1), "{\"format\":1,\"generation\":1,\"files\":[\"" + live0 + "\",\"" + live0 + "\"]}");
        content.put(hour("a", 2), "{\"format\":1,\"generation\":1,\"files\":[\"../../../../../../tenant_id=good/"
                + "year=2026/month=11/day=01/hour=10/x.parquet\"]}");
        content.put(hour("a", 3), "{\"format\":1,\"generation\":7,\"files\":[]}");
        Map<PartitionKey, String> reason = Map.of(hour("a", 0), "malformed JSON", hour("a", 1), "more than once",
                hour("a", 2), "not a single path component", hour("a", 3), "differs from the generation in its name");
        for (Map.Entry<PartitionKey, String> e : content.entrySet()) {
            Files.writeString(store.root().resolve(e.getKey().dataPrefix() + m), e.getValue(),
                    StandardCharsets.UTF_8);
            bad.put(e.getKey(), m);
        }
        assertFailsAloneAndNothingDeleted(store, dir.resolve("scratch"), bad);

        QueryEngine engine = new QueryEngine(store, new TableLayout(store), new TableReader(store,
                new ManifestCodec()), MeterProvider.noop());
        for (PartitionKey p : content.keySet()) {
            ManifestException e = assertThrows(ManifestException.class, () -> engine.collect(Query.tenant("a")
                    .window(p.hourStart(), p.hourStart().plusSeconds(3600))), "a query refuses " + p);
            assertTrue(e.getMessage().contains(p.dataPrefix() + m) && e.getMessage().contains(reason.get(p)),
                    e.getMessage());
        }
        assertEquals(150, engine.collect(Query.tenant("good")).rows().size(), "the good tenant still reads");
    }

    private static String name(String key) {
        return key.substring(key.lastIndexOf('/') + 1);
    }

    /** Writes rows as an ingest-shaped file into {@code p} without IngestWriter's partition check. */
    private static String writeRaw(LocalObjectStore store, PartitionKey p, List<LogRecord> rows) throws Exception {
        String key = p.dataPrefix() + Uuid7.system().next() + ".parquet";
        try (var w = new dev.ourios.parquet.write.LogFileWriter(store.create(key), dev.ourios.parquet.write.WriterOptions.ingest())) {
            for (LogRecord r : rows) {
                w.write(r);
            }
            w.commit();
        }
        return key;
    }

    /** A valid Parquet file with unrelated columns, as some other tool would write into the wrong directory. */
    static void writeForeignSchema(Path file) throws Exception {
        MessageType schema = Types.buildMessage()
                .required(PrimitiveTypeName.INT64).named("order_id")
                .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("customer")
                .required(PrimitiveTypeName.DOUBLE).named("amount")
                .named("orders");
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withConf(new PlainParquetConfiguration()).withType(schema).build()) {
            SimpleGroupFactory f = new SimpleGroupFactory(schema);
            for (int i = 0; i < 10; i++) {
                w.write(f.newGroup().append("order_id", (long) i).append("customer", "c" + i).append("amount", i * 1.5));
            }
        }
    }
}
