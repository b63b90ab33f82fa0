package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.verify.Verifier;
import dev.ourios.core.FileNames;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.LiveFiles;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.GcReport;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestKeys;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A partition the reference implementation wrote (STORAGE.md §3.6): several real Parquet files, of which its
 * {@code manifest.json} names only some. Queries and {@code ourios files} see exactly the named files, the sweep
 * compacts exactly them and takes the partition over, and GC then collects the reference orphans, the retired inputs
 * and {@code manifest.json}, on local disk and on a real S3 API (s3proxy).
 */
class ReferenceStoreCompactionTest extends OnBothBackends {
    /** A wall clock far enough ahead that every retired input, orphan and superseded manifest is past the grace. */
    private static final Clock GC_LATER = Clock.offset(Clock.systemUTC(), Duration.ofHours(1));
    private static final long REFERENCE_GENERATION = 17;


    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void the_reference_manifest_decides_what_is_read_compacted_and_collected(StoreBackend backend) throws Exception {
        ObjectStore store = backend.newStore();
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 7, 300, 23));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        List<String> all = store.listObjects(p.dataPrefix()).stream().map(ObjectInfo::name).sorted().toList();
        assertEquals(7, all.size(), all.toString());
        // The reference names files 0, 2, 3 and 5; the others are debris of its lost races or crashes.
        List<String> named = List.of(all.get(0), all.get(2), all.get(3), all.get(5));
        List<String> orphans = all.stream().filter(f -> !named.contains(f)).toList();
        List<LogRecord> namedRows = new ArrayList<>();
        for (String f : named) {
            namedRows.addAll(TestStores.readAll(store, p.dataPrefix() + f));
        }
        long orphanRows = 0;
        for (String f : orphans) {
            orphanRows += TestStores.readAll(store, p.dataPrefix() + f).size();
        }
        assertTrue(orphanRows > 0);
        String referenceKey = p.dataPrefix() + ManifestKeys.REFERENCE_NAME;
        store.put(referenceKey, ("{\"generation\":" + REFERENCE_GENERATION + ",\"files\":["
                + named.stream().map(f -> "\"" + f + "\"").collect(Collectors.joining(",")) + "]}")
                .getBytes(StandardCharsets.UTF_8));

        // Reading: the query and `ourios files` see exactly the named files.
        assertEquals(namedRows.size(), query(store).rows());
        assertEquals(named.stream().map(f -> p.dataPrefix() + f).toList(),
                files(store).stream().map(LiveFiles.LiveFile::key).sorted().toList());
        assertEquals(TestStores.identities(namedRows), TestStores.identities(TestStores.liveRows(store, p)));
        Verifier.PartitionVerdict before = verifier(store).verify(p);
        assertEquals(List.of(), before.problems());
        assertEquals(REFERENCE_GENERATION, before.generation());
        assertEquals(namedRows.size(), before.rows());
        assertTrue(before.checksumMissing(), "the reference manifest records no checksum");

        // Compaction: the inputs are exactly the named files, and the commit takes the partition over.
        SweepReport report = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });
        assertEquals(1, report.count(PartitionResult.Result.COMMITTED), report.toString());
        PartitionResult result = report.partitions().get(0);
        assertEquals(named, result.inputs().stream().sorted().toList());
        assertEquals(REFERENCE_GENERATION + 1, result.generation());
        assertEquals(namedRows.size(), result.rows());
        PartitionSnapshot after = TestStores.snapshot(store, p);
        assertFalse(after.ruledByReference());
        assertEquals(REFERENCE_GENERATION + 1, after.generation());
        assertEquals(1, after.live().size());
        String output = after.live().get(0).name();
        assertTrue(FileNames.isCompactedFile(output), output);
        assertEquals(TestStores.identities(namedRows), TestStores.identities(TestStores.readAll(store,
                after.live().get(0).key())));
        assertEquals(new TreeSet<>(all), new TreeSet<>(after.manifest().orElseThrow().retiredNames()),
                "the inputs and the reference orphans are retired");
        assertEquals(namedRows.size(), query(store).rows());
        Verifier.PartitionVerdict verdict = verifier(store).verify(p);
        assertEquals(List.of(), verdict.problems());
        assertFalse(verdict.checksumMissing(), "our commit records the checksum verify checks");
        SweepReport again = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });
        assertEquals(0, again.count(PartitionResult.Result.COMMITTED), again.toString());

        // GC past the grace: the output and our manifest stay; every other object goes.
        GcReport gc = new GarbageCollector(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                new GcOptions(CompactionOptions.DEFAULT_GC_GRACE, false), GC_LATER).run(PartitionFilter.all());
        assertEquals(List.of(), gc.errors());
        assertEquals(List.of(output, ManifestKeys.key(p, REFERENCE_GENERATION + 1).substring(p.dataPrefix().length()))
                .stream().sorted().toList(),
                store.listObjects(p.dataPrefix()).stream().map(ObjectInfo::name).sorted().toList());
        assertEquals(namedRows.size(), query(store).rows());
        assertEquals(TestStores.identities(namedRows), TestStores.identities(TestStores.liveRows(store, p)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void a_file_our_writer_lands_into_a_reference_partition_is_live_and_survives_gc(StoreBackend backend)
            throws Exception {
        ObjectStore store = backend.newStore();
        GeneratorSpec spec = TestStores.spec(List.of("acme"), 1, 3, 200, 29);
        TestStores.generate(store, spec);
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        List<String> all = store.listObjects(p.dataPrefix()).stream().map(ObjectInfo::name).sorted().toList();
        List<String> named = List.of(all.get(0), all.get(2));
        store.put(p.dataPrefix() + ManifestKeys.REFERENCE_NAME, ("{\"generation\":0,\"files\":[\"" + named.get(0)
                + "\",\"" + named.get(1) + "\"]}").getBytes(StandardCharsets.UTF_8));
        List<LogRecord> late = new LogGenerator(TestStores.spec(List.of("acme"), 1, 1, 50, 31)).file("acme", 0, 0);
        String landed = new IngestWriter(store).writeFile(p, late).key();

        PartitionSnapshot s = TestStores.snapshot(store, p);
        assertFalse(s.ruledByReference());
        assertEquals(1, s.generation(), "the takeover is the reference generation + 1");
        List<String> live = new ArrayList<>(named);
        live.add(landed.substring(p.dataPrefix().length()));
        assertEquals(live.stream().sorted().toList(), s.liveNames().stream().sorted().toList());
        long rows = 400 + late.size();
        assertEquals(rows, query(store).rows());

        GcReport gc = new GarbageCollector(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                new GcOptions(CompactionOptions.DEFAULT_GC_GRACE, false), GC_LATER).run(PartitionFilter.all());
        assertEquals(List.of(), gc.errors());
        assertEquals(List.of(p.dataPrefix() + all.get(1), p.dataPrefix() + ManifestKeys.REFERENCE_NAME),
                gc.deletedKeys().stream().sorted().toList());
        assertEquals(rows, query(store).rows());
    }

    private static dev.ourios.query.QueryStats query(ObjectStore store) throws Exception {
        return new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                MeterProvider.noop()).run(Query.tenant("acme").window(TestStores.HOUR,
                        TestStores.HOUR.plus(Duration.ofHours(1))), r -> { });
    }

    private static Verifier verifier(ObjectStore store) {
        return new Verifier(store, new TableLayout(store), new TableReader(store, new ManifestCodec()));
    }

    private static List<LiveFiles.LiveFile> files(ObjectStore store) throws Exception {
        return new LiveFiles(store, new TableLayout(store), new TableReader(store, new ManifestCodec()))
                .list("acme", Optional.empty(), Optional.empty());
    }
}
