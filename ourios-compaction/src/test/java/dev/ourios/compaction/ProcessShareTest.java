package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.share.ShareSampler;
import dev.ourios.compaction.sweep.Shard;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.HaltingObjectStore;
import dev.ourios.store.HaltingObjectStore.Step;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sharing one rewrite between compactor processes (storage.md §4.14): sharded compactors each write one group of a
 * large hour's shares and publish a share record; the process whose record completes the set commits the band,
 * byte-identical to one process's, however many share workers each splits its group between. A group whose record
 * is there is not written again; records past half the GC grace, or unreadable, are never assembled; a process halted
 * after its record leaves it for the other to assemble, one halted before it writes its group again on restart; GC
 * collects the records.
 */
class ProcessShareTest {
    private static final long MAX_FILE = 1L << 20;
    private static final Duration GRACE = Duration.ofMinutes(1);

    @TempDir
    Path dir;

    private LocalObjectStore store;
    private PartitionKey hour;

    @BeforeEach
    void generate() throws IOException {
        store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 6, 12000, 29));
        hour = PartitionKey.ofHour("acme", TestStores.HOUR);
        long bytes = TestStores.snapshot(store, hour).live().stream().mapToLong(ObjectInfo::size).sum();
        assertTrue(ShareSampler.shareCount(bytes, MAX_FILE) >= 2, bytes + " bytes are cut into shares");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void two_shards_write_a_group_each_and_the_second_commits_the_band_one_process_writes(int first)
            throws IOException {
        StoreLedger ledger = new StoreLedger(store);
        List<byte[]> alone = bandAlone();

        PartitionResult waiting = only(sweep(first));
        assertEquals(PartitionResult.Result.NOOP, waiting.result(), waiting.toString());
        assertTrue(waiting.reason().contains("waiting for shares of other compactors (1 of 2"), waiting.reason());
        PartitionSnapshot halfway = TestStores.snapshot(store, hour);
        assertEquals(0, halfway.generation(), "nothing committed while a group is missing");
        assertEquals(1, shareRecords(halfway).size(), halfway.listing().toString());
        ledger.assertRowsIntact("one group written");
        PartitionResult again = only(sweep(first));
        assertEquals(PartitionResult.Result.NOOP, again.result(), again.toString());
        assertEquals(halfway.listing().stream().map(ObjectInfo::name).toList(),
                TestStores.snapshot(store, hour).listing().stream().map(ObjectInfo::name).toList(),
                "a group whose record is there is not written again");

        // The other process splits its group between two share workers: the same files.
        PartitionResult committed = only(sweep(1 - first, 2));
        assertEquals(PartitionResult.Result.COMMITTED, committed.result(), committed.toString());
        ledger.assertRowsIntact("assembled");
        assertEquals(alone.size(), band().size(), "as many files as one process writes");
        for (int i = 0; i < alone.size(); i++) {
            assertArrayEquals(alone.get(i), band().get(i), "band file " + i + " byte for byte");
        }
        collectPastGrace();
        PartitionSnapshot after = TestStores.snapshot(store, hour);
        assertEquals(List.of(), shareRecords(after), "GC collects the records past the grace");
        assertEquals(List.of(), after.orphans(), after.listing().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"stale", "unreadable"})
    void a_record_past_half_the_grace_or_unreadable_is_not_assembled_and_its_group_is_written_once_all_have_one(
            String fault)
            throws IOException {
        StoreLedger ledger = new StoreLedger(store);
        assertEquals(PartitionResult.Result.NOOP, only(sweep(0)).result());
        List<ObjectInfo> firstWrite = new ArrayList<>(TestStores.snapshot(store, hour).orphans());
        ObjectInfo record = shareRecords(TestStores.snapshot(store, hour)).get(0);
        if (fault.equals("stale")) {
            // The record and its files as a process that wrote them 40 s ago left them: past half of 60 s.
            for (ObjectInfo o : firstWrite) {
                Files.setLastModifiedTime(dir.resolve("store").resolve(o.key()),
                        FileTime.from(Instant.now().minusSeconds(40)));
            }
        } else {
            Files.write(dir.resolve("store").resolve(record.key()), "{\"format\":1,\"plan\":".getBytes());
        }

        List<String> before = TestStores.snapshot(store, hour).listing().stream().map(ObjectInfo::name).toList();
        assertEquals(PartitionResult.Result.NOOP, only(sweep(0)).result());
        assertEquals(before, TestStores.snapshot(store, hour).listing().stream().map(ObjectInfo::name).toList(),
                fault + ": while the other group has no record, the group is not written again");

        PartitionResult other = only(sweep(1));
        assertEquals(PartitionResult.Result.NOOP, other.result(), other.toString());
        assertTrue(other.reason().contains("(1 of 2 groups written)"), fault + ": " + other.reason());
        assertEquals(0, TestStores.snapshot(store, hour).generation());

        PartitionResult again = only(sweep(0));
        assertEquals(PartitionResult.Result.COMMITTED, again.result(), fault + ": " + again);
        ledger.assertRowsIntact(fault + " record, group written again");
        PartitionSnapshot s = TestStores.snapshot(store, hour);
        for (ObjectInfo o : firstWrite) {
            assertFalse(s.manifest().orElseThrow().fileNames().contains(o.name()),
                    fault + ": the first write of the group is never committed: " + o.name());
        }
        collectPastGrace();
        assertEquals(List.of(), TestStores.snapshot(store, hour).orphans(), fault + ": GC collects the first write");
    }

    @Test
    void two_compactor_processes_share_one_hour_at_once_and_it_is_committed_once() throws Exception {
        StoreLedger ledger = new StoreLedger(store);
        List<byte[]> alone = bandAlone();
        CompactorChild a = child(0, Optional.empty());
        CompactorChild b = child(1, Optional.empty());
        assertEquals(0, a.await(180_000), a.output());
        assertEquals(0, b.await(180_000), b.output());
        String both = a.output() + "\n----\n" + b.output();
        assertEquals(1, count(both, " committed"), both);
        PartitionSnapshot s = TestStores.snapshot(store, hour);
        assertEquals(1, s.generation(), "one commit: " + both);
        ledger.assertRowsIntact("two processes");
        for (int i = 0; i < alone.size(); i++) {
            assertArrayEquals(alone.get(i), band().get(i), "band file " + i + " byte for byte");
        }
    }

    @ParameterizedTest
    @CsvSource({"AFTER_SHARE_RECORD, 0", "AFTER_SHARE_RECORD, 1", "MID_REWRITE, 0", "AFTER_OUTPUT_PUBLISHED, 1"})
    void a_process_halted_while_sharing_loses_no_row_and_the_hour_is_committed_once_both_have_run(Step point,
            int killed) throws Exception {
        StoreLedger ledger = new StoreLedger(store);
        CompactorChild dying = child(killed, Optional.of(point));
        assertEquals(HaltingObjectStore.HALT_STATUS, dying.await(180_000), dying.output());
        ledger.assertRowsIntact("after the halt at " + point);
        assertEquals(0, TestStores.snapshot(store, hour).generation(), "nothing committed");

        CompactorChild other = child(1 - killed, Optional.empty());
        assertEquals(0, other.await(180_000), other.output());
        ledger.assertRowsIntact(point + ", then the other process");
        if (point == Step.AFTER_SHARE_RECORD) {
            assertEquals(1, count(other.output(), " committed"), "the record left behind is assembled: "
                    + other.output());
        } else {
            assertEquals(1, count(other.output(), " noop"), "the halted group is missing: " + other.output());
            CompactorChild restarted = child(killed, Optional.empty());
            assertEquals(0, restarted.await(180_000), restarted.output());
            assertEquals(1, count(restarted.output(), " committed"), restarted.output());
        }
        assertEquals(1, TestStores.snapshot(store, hour).generation(), "one commit");
        ledger.assertRowsIntact(point + ", committed");
        BandRecovery.recoverIntoOneBand(store, dir.resolve("scratch"), options(), ledger, point.label());
    }

    private CompactorChild child(int shard, Optional<Step> halt) throws IOException {
        return CompactorChild.start(dir.resolve("store"), dir.resolve("scratch-" + shard), GRACE.toMillis(), 1,
                false, halt, Optional.empty(), OptionalLong.of(MAX_FILE), 1, Optional.of(shard + "/2"));
    }

    private CompactionOptions options() {
        return CompactionOptions.defaults(dir.resolve("scratch")).withMaxFileBytes(MAX_FILE).withMinFiles(1)
                .withGcGrace(GRACE);
    }

    private List<PartitionResult> sweep(int shard) {
        return sweep(shard, 1);
    }

    private List<PartitionResult> sweep(int shard, int shareWorkers) {
        SweepRunner runner = CompactionWiring.sweepRunner(SweepSettings.of(store,
                        options().withShareWorkers(shareWorkers))
                .withPlanClock(TestStores.LATER).withShard(new Shard(shard, 2)));
        SweepReport report = runner.sweep(PartitionFilter.all(), r -> { });
        assertFalse(report.hasErrors(), report.toString());
        return report.partitions();
    }

    /** The band one unsharded process writes from a copy of the same inputs, file by file in key order. */
    private List<byte[]> bandAlone() throws IOException {
        LocalObjectStore copy = new LocalObjectStore(dir.resolve("alone"));
        for (ObjectInfo o : TestStores.snapshot(store, hour).live()) {
            copy.put(o.key(), store.readAllBytes(o.key()));
        }
        SweepReport r = CompactionWiring.sweepRunner(SweepSettings.of(copy, options())
                .withPlanClock(TestStores.LATER)).sweep(PartitionFilter.all(), x -> { });
        assertEquals(1, r.count(PartitionResult.Result.COMMITTED), r.toString());
        return band(copy);
    }

    private List<byte[]> band() throws IOException {
        return band(store);
    }

    private List<byte[]> band(LocalObjectStore s) throws IOException {
        List<byte[]> files = new ArrayList<>();
        for (String name : TestStores.snapshot(s, hour).manifest().orElseThrow().main()) {
            files.add(s.readAllBytes(hour.dataPrefix() + name));
        }
        assertTrue(files.size() >= 2, "a band");
        return files;
    }

    private void collectPastGrace() throws IOException {
        var gc = new dev.ourios.table.GarbageCollector(store, new dev.ourios.table.TableLayout(store),
                new dev.ourios.table.TableReader(store, new dev.ourios.table.ManifestCodec()),
                new dev.ourios.table.GcOptions(GRACE, false),
                java.time.Clock.offset(java.time.Clock.systemUTC(), GRACE.plusMinutes(1))).run(PartitionFilter.all());
        assertTrue(gc.errors().isEmpty(), gc.errors().toString());
    }

    private static List<ObjectInfo> shareRecords(PartitionSnapshot s) {
        return s.listing().stream().filter(o -> FileNames.isShareRecord(o.name())).toList();
    }

    private PartitionResult only(List<PartitionResult> results) {
        List<PartitionResult> mine = results.stream().filter(r -> r.partition().equals(hour)).toList();
        assertEquals(1, mine.size(), results.toString());
        return mine.get(0);
    }

    private static int count(String text, String word) {
        int n = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith("RESULT ") && line.endsWith(word)) {
                n++;
            }
        }
        return n;
    }
}
