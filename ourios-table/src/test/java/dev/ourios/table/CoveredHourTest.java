package dev.ourios.table;

import static dev.ourios.table.TestPartitions.NOW;
import static dev.ourios.table.TestPartitions.names;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.PartitionKey;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A covered hour (STORAGE.md §4.15) as readers, the hour committer, the layout walk and GC see it. */
class CoveredHourTest {
    private static final PartitionKey HOUR = new PartitionKey("acme", 2026, 11, 29, 10);
    private static final DayPartition DAY = DayPartition.of(HOUR);

    @TempDir
    Path root;

    private TestPartitions t;
    private String main;
    private String ingest;
    private String dayFile;

    /** The hour compacted at generation 1, then covered by day generation 1. */
    private void coveredAtOne() throws IOException {
        t = new TestPartitions(root, 7);
        Instant old = NOW.minus(Duration.ofHours(2));
        ingest = t.ingestName();
        main = t.compactedName();
        t.put(HOUR, ingest, old);
        t.put(HOUR, main, old);
        t.putManifest(HOUR, Manifest.of(1, List.of(main), List.of(new Retired(ingest, old)),
                new CommitRecord(old, List.of(ingest), main, 3, 1, 1, "3:x")), old);
        dayFile = t.compactedName();
        t.store.put(DAY.prefix() + dayFile, new byte[] {1});
        t.touch(DAY.prefix() + dayFile, old);
        putDay(1, List.of(dayFile), List.of(new Cover(10, 1, 3, List.of(ingest, main))), old);
    }

    private void putDay(long generation, List<String> files, List<Cover> covers, Instant at) throws IOException {
        String key = DAY.prefix() + dev.ourios.core.FileNames.manifestName(generation);
        Manifest m = Manifest.ofDay(generation, files, List.of(), new CommitRecord(CommitKind.ROLLUP, at,
                List.of(main), files.get(0), 3, 0, 1, 1, "3:x", null), List.of(), covers);
        t.store.put(key, t.codec.encode(key, m));
        t.touch(key, at);
    }

    @Test
    void aValidlyCoveredHourResolvesToItsLateFilesAndIsRefusedByAReaderOfHoursAlone() throws Exception {
        coveredAtOne();
        String late = t.ingestName();
        t.put(HOUR, late, NOW);
        PartitionSnapshot s = t.reader.hourSnapshot(HOUR);
        assertTrue(s.isCovered());
        assertEquals(1, s.generation());
        assertEquals(List.of(late), names(s.live()));
        assertEquals(List.of(main, ingest).stream().sorted().toList(), names(s.covered()));
        assertTrue(s.manifest().isEmpty(), "the covered hour's manifest is not read");

        CoveredHourException e = assertThrows(CoveredHourException.class, () -> t.reader.snapshot(HOUR));
        assertTrue(e.getMessage().contains("covered by the day partition " + DAY.prefix() + " at generation 1"),
                e.getMessage());

        // The covered files may be gone (collected): the covered hour still resolves, from the day.
        t.store.delete(HOUR.dataPrefix() + main);
        assertEquals(List.of(late), names(t.reader.hourSnapshot(HOUR).live()));
        assertEquals(List.of(dayFile), names(t.reader.daySnapshot(DAY).live()));
    }

    @Test
    void anHourCommitPlannedOnTheCoveredGenerationLosesAndOneOnTopOfItVoidsTheCover() throws Exception {
        coveredAtOne();
        ManifestCommitter committer = ManifestCommitter.forGcGrace(t.store, t.codec, Clock.systemUTC(),
                Duration.ZERO);
        String out = t.compactedName();
        t.put(HOUR, out, Instant.now());
        Manifest next = Manifest.of(2, List.of(out), List.of(new Retired(ingest, NOW), new Retired(main, NOW)),
                new CommitRecord(Instant.now(), List.of(main), out, 3, 1, 1, "3:x"));
        CommitResult lost = committer.commit(HOUR, 1, next);
        assertEquals(CommitResult.Status.LOST, lost.status());
        assertTrue(lost.detail().contains("covered by its day partition"), lost.detail());
        assertTrue(t.reader.hourSnapshot(HOUR).isCovered());

        // The race the check cannot close: the hour's create lands after the day's. The cover is void at once and
        // the hour's own generation 2 rules, holding every row; the day's rows of the hour are dead.
        t.putManifest(HOUR, next, Instant.now());
        PartitionSnapshot s = t.reader.hourSnapshot(HOUR);
        assertFalse(s.isCovered());
        assertEquals(List.of(out), names(s.live()));
        assertEquals(List.of(out), names(t.reader.snapshot(HOUR).live()));
    }

    @Test
    void aCoverAtGenerationZeroHoldsWhileTheHourHasNoManifest() throws Exception {
        t = new TestPartitions(root, 9);
        String a = t.ingestName();
        t.put(HOUR, a, NOW);
        main = a;
        dayFile = t.compactedName();
        t.store.put(DAY.prefix() + dayFile, new byte[] {1});
        putDay(1, List.of(dayFile), List.of(new Cover(10, 0, 1, List.of(a))), NOW);
        assertTrue(t.reader.hourSnapshot(HOUR).isCovered());
        assertEquals(List.of(), names(t.reader.hourSnapshot(HOUR).live()));
        t.putManifestBytes(HOUR, 1, "{\"format\":1,\"generation\":1,\"files\":[]}", NOW);
        assertFalse(t.reader.hourSnapshot(HOUR).isCovered());
    }

    @Test
    void theWalkGivesTheDayPartitionWithoutTakingItForAnHour() throws Exception {
        coveredAtOne();
        List<PartitionKey> hours = new ArrayList<>();
        List<DayPartition> days = new ArrayList<>();
        new TableLayout(t.store).forEachPartition(PartitionFilter.all(), hours::add, days::add);
        assertEquals(List.of(HOUR), hours);
        assertEquals(List.of(DAY), days);
    }

    @Test
    void gcCollectsACoveredHoursNamesOnlyOnceTheDayCommitIsOlderThanTheGrace() throws Exception {
        coveredAtOne();
        Duration grace = Duration.ofMinutes(10);
        // The day committed an hour ago: the covered names go, manifest 1 (current) stays.
        GarbageCollector gc = new GarbageCollector(t.store, new TableLayout(t.store), t.reader,
                new GcOptions(grace, false), Clock.fixed(NOW.plus(Duration.ofHours(1)), ZoneOffset.UTC));
        String dayKey = DAY.prefix() + dev.ourios.core.FileNames.manifestName(1);
        t.touch(dayKey, NOW.plus(Duration.ofMinutes(55)));
        GcReport early = gc.run(PartitionFilter.all());
        assertEquals(List.of(), early.deletedKeys(), "the day commit is younger than the grace");
        t.touch(dayKey, NOW.minus(Duration.ofHours(1)));
        GcReport r = gc.run(PartitionFilter.all());
        assertEquals(List.of(HOUR.dataPrefix() + ingest, HOUR.dataPrefix() + main).stream().sorted().toList(),
                r.deletedKeys().stream().sorted().toList());
        assertTrue(t.exists(ManifestKeys.key(HOUR, 1)));
        assertTrue(t.exists(DAY.prefix() + dayFile));
        assertTrue(t.reader.hourSnapshot(HOUR).isCovered());
    }

    @Test
    void gcCollectsADayPartitionsRetiredFilesOrphansAndSupersededManifests() throws Exception {
        coveredAtOne();
        Instant old = NOW.minus(Duration.ofHours(2));
        String second = t.compactedName();
        String orphan = t.compactedName();
        for (String name : List.of(second, orphan)) {
            t.store.put(DAY.prefix() + name, new byte[] {2});
            t.touch(DAY.prefix() + name, old);
        }
        String key2 = DAY.prefix() + dev.ourios.core.FileNames.manifestName(2);
        Manifest m2 = Manifest.ofDay(2, List.of(second), List.of(new Retired(dayFile, old)),
                new CommitRecord(CommitKind.ROLLUP, old, List.of(dayFile), second, 3, 0, 1, 1, "3:x", null),
                List.of(), List.of(new Cover(10, 1, 3, List.of(ingest, main))));
        t.store.put(key2, t.codec.encode(key2, m2));
        t.touch(key2, old);
        GcReport r = new GarbageCollector(t.store, new TableLayout(t.store), t.reader,
                new GcOptions(Duration.ofMinutes(10), false), Clock.fixed(NOW, ZoneOffset.UTC))
                .run(PartitionFilter.all());
        assertEquals(List.of(), r.errors());
        assertTrue(r.deletedKeys().containsAll(List.of(DAY.prefix() + dayFile, DAY.prefix() + orphan,
                DAY.prefix() + dev.ourios.core.FileNames.manifestName(1))), r.deletedKeys().toString());
        assertTrue(t.exists(DAY.prefix() + second));
        assertTrue(t.exists(key2));
        assertEquals(List.of(second), names(t.reader.daySnapshot(DAY).live()));
    }

    @Test
    void anInvalidDayManifestFailsItsHoursAloneInReadersCommitsAndGc() throws Exception {
        coveredAtOne();
        String bad = DAY.prefix() + dev.ourios.core.FileNames.manifestName(2);
        t.store.put(bad, "{\"format\":1,\"generation\":2,\"files\":[],\"covers\":7}".getBytes());
        assertThrows(ManifestException.class, () -> t.reader.hourSnapshot(HOUR));
        assertThrows(ManifestException.class, () -> t.reader.snapshot(HOUR));
        ManifestCommitter committer = ManifestCommitter.forGcGrace(t.store, t.codec, Clock.systemUTC(),
                Duration.ZERO);
        CommitResult r = committer.commit(HOUR, 1, Manifest.of(2, List.of(main), List.of(), null));
        assertEquals(CommitResult.Status.REJECTED, r.status());
        GcReport gc = new GarbageCollector(t.store, new TableLayout(t.store), t.reader,
                new GcOptions(Duration.ofMinutes(10), false), Clock.fixed(NOW.plus(Duration.ofDays(1)),
                        ZoneOffset.UTC)).run(PartitionFilter.all());
        assertEquals(List.of(), gc.deletedKeys());
        assertEquals(2, gc.errors().size(), gc.errors().toString());
    }
}
