package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.Shard;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A large hour shared by two sharded compactors (storage.md §4.14, "Sharing one rewrite between compactor
 * processes") on local disk and on a real S3 API (s3proxy): the first writes its group and its share record and
 * waits, the second commits, and the band is the one an unsharded compactor writes from the same inputs, byte for
 * byte, with every row once.
 */
class ProcessShareBothBackendsTest extends OnBothBackends {
    private static final long MAX_FILE = 1L << 20;
    private static final PartitionKey HOUR = PartitionKey.ofHour("acme", TestStores.HOUR);

    @ParameterizedTest
    @MethodSource("backends")
    void two_shards_share_an_hour_into_the_band_one_compactor_writes(StoreBackend backend) throws Exception {
        Path localRoot = dir.resolve("source-" + backend);
        LocalObjectStore source = new LocalObjectStore(localRoot);
        TestStores.generate(source, TestStores.spec(List.of("acme"), 1, 6, 12000, 29));
        List<String> rows = TestStores.identities(TestStores.liveRows(source, HOUR));
        ObjectStore shared = backend.newStore();
        try (Stream<Path> all = Files.walk(localRoot)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                shared.put(localRoot.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        }
        sweep(source, Shard.ALL);

        assertEquals(PartitionResult.Result.NOOP, hourResult(sweep(shared, new Shard(1, 2))).result());
        PartitionSnapshot waiting = new TableReader(shared, new ManifestCodec()).snapshot(HOUR);
        assertEquals(0, waiting.generation(), backend + ": nothing committed yet");
        assertEquals(1, waiting.orphans().stream().filter(o -> FileNames.isShareRecord(o.name())).count(),
                backend + ": one share record " + waiting.listing());
        assertEquals(PartitionResult.Result.COMMITTED, hourResult(sweep(shared, new Shard(0, 2))).result());

        List<byte[]> alone = band(source);
        List<byte[]> both = band(shared);
        assertEquals(alone.size(), both.size(), backend + ": the same cut");
        for (int i = 0; i < alone.size(); i++) {
            assertArrayEquals(alone.get(i), both.get(i), backend + ": band file " + i);
        }
        assertEquals(rows, TestStores.identities(TestStores.liveRows(shared, HOUR)), backend + ": every row once");
    }

    private SweepReport sweep(ObjectStore store, Shard shard) {
        CompactionOptions opts = CompactionOptions.defaults(dir.resolve("scratch")).withMaxFileBytes(MAX_FILE)
                .withMinFiles(1);
        SweepReport r = CompactionWiring.sweepRunner(SweepSettings.of(store, opts).withPlanClock(TestStores.LATER)
                .withShard(shard)).sweep(PartitionFilter.all(), x -> { });
        assertFalse(r.hasErrors(), r.toString());
        return r;
    }

    private static PartitionResult hourResult(SweepReport r) {
        List<PartitionResult> mine = r.partitions().stream().filter(p -> p.partition().equals(HOUR)).toList();
        assertEquals(1, mine.size(), r.toString());
        return mine.get(0);
    }

    private static List<byte[]> band(ObjectStore store) throws IOException {
        PartitionSnapshot s = new TableReader(store, new ManifestCodec()).snapshot(HOUR);
        List<byte[]> files = new ArrayList<>();
        for (String name : s.manifest().orElseThrow().main()) {
            files.add(store.readAllBytes(HOUR.dataPrefix() + name));
        }
        assertTrue(files.size() >= 2, "a band: " + s.listing().stream().map(ObjectInfo::name).toList());
        return files;
    }
}
