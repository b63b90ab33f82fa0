package dev.ourios.table;

import static dev.ourios.table.TestPartitions.NOW;
import static dev.ourios.table.TestPartitions.P;
import static dev.ourios.table.TestPartitions.names;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.FileNames;
import dev.ourios.store.ObjectInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The reference implementation's {@code manifest.json} (STORAGE.md §3.6): reading, taking over, collecting. */
class ReferenceManifestTest {
    private static final Duration GRACE = GcOptions.DEFAULT_GRACE;
    private static final String REF = P.dataPrefix() + ManifestKeys.REFERENCE_NAME;

    @TempDir
    Path root;
    TestPartitions t;

    @BeforeEach
    void setUp() {
        t = new TestPartitions(root, 7);
    }

    private void putReference(String json, Instant modified) throws IOException {
        t.store.put(REF, json.getBytes(StandardCharsets.UTF_8));
        t.touch(REF, modified);
    }

    private static String reference(long generation, List<String> files) {
        return "{\"generation\":" + generation + ",\"files\":["
                + files.stream().map(f -> "\"" + f + "\"").collect(Collectors.joining(",")) + "]}";
    }

    private GarbageCollector gc(Instant now) {
        return new GarbageCollector(t.store, new TableLayout(t.store), t.reader, new GcOptions(GRACE, false),
                Clock.fixed(now, ZoneOffset.UTC));
    }

    private ManifestCommitter committer(Instant now) {
        return ManifestCommitter.forGcGrace(t.store, t.codec, Clock.fixed(now, ZoneOffset.UTC), GRACE);
    }

    @Test
    void theReferenceManifestIsTheWholeLiveSetAndEveryOtherParquetFileAnOrphan() throws Exception {
        String named1 = t.ingestName();
        String named2 = "0b6f3c6e-5a39-4d57-9a1e-0c4a3d2b1f00.parquet"; // not a UUIDv7: named, so live
        String orphanIngest = t.ingestName();
        String orphanCompacted = t.compactedName();
        String orphanOther = "Upper-Case.parquet";
        for (String f : List.of(named1, named2, orphanIngest, orphanCompacted, orphanOther, "notes.txt",
                "." + named1 + ".tmp-abc")) {
            t.put(f);
        }
        putReference(reference(7, List.of(named2, named1)), NOW);

        PartitionSnapshot s = t.reader.snapshot(P);
        assertTrue(s.ruledByReference());
        assertEquals(7, s.generation());
        assertEquals(ManifestKeys.REFERENCE_NAME, s.currentManifest().orElseThrow().name());
        assertEquals(new TreeSet<>(List.of(named1, named2)), new TreeSet<>(names(s.live())));
        assertEquals(new TreeSet<>(List.of(orphanIngest, orphanCompacted, orphanOther)),
                new TreeSet<>(names(s.orphans())));
        assertEquals(List.of("." + named1 + ".tmp-abc"), names(s.temps()));
        assertEquals(List.of("notes.txt"), names(s.ignored()));
        assertEquals(List.of(), s.supersededManifests());
        assertEquals(List.of(), s.unmanifestedIngest());
    }

    @Test
    void unknownFieldsAreIgnoredAndAnEmptyFileListIsAnEmptyLiveSet() throws Exception {
        t.put(t.ingestName());
        putReference("{\"generation\":0,\"files\":[],\"writer\":{\"name\":\"other\",\"v\":[1,2]},\"x\":null}", NOW);
        PartitionSnapshot s = t.reader.snapshot(P);
        assertEquals(0, s.generation());
        assertTrue(s.ruledByReference());
        assertEquals(List.of(), s.live());
        assertEquals(1, s.orphans().size());
    }

    @Test
    void aNamedFileThatIsMissingIsAnErrorNamingTheReferenceManifest() throws Exception {
        String present = t.ingestName();
        String missing = t.ingestName();
        t.put(present);
        putReference(reference(3, List.of(present, missing)), NOW);
        MissingFileException e = assertThrows(MissingFileException.class, () -> t.reader.snapshot(P));
        assertEquals(REF, e.manifestKey());
        assertEquals(missing, e.missingFile());
        assertTrue(e.getMessage().contains("manifest.json: names '" + missing + "'"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "not json", "[]", "{\"generation\":1}", "{\"files\":[]}", "{\"generation\":\"1\",\"files\":[]}",
        "{\"generation\":1.5,\"files\":[]}", "{\"generation\":-1,\"files\":[]}",
        "{\"generation\":9223372036854775807,\"files\":[]}", "{\"generation\":99999999999999999999,\"files\":[]}",
        "{\"generation\":1,\"files\":\"a.parquet\"}", "{\"generation\":1,\"files\":[1]}",
        "{\"generation\":1,\"files\":[\"a/b.parquet\"]}", "{\"generation\":1,\"files\":[\"a.PARQUET\"]}",
        "{\"generation\":1,\"files\":[\"..\"]}", "{\"generation\":1,\"files\":[\"a.parquet\",\"a.parquet\"]}",
        "{\"generation\":1,\"generation\":2,\"files\":[]}", "{\"generation\":1,\"files\":[]} {}",
        "{\"generation\":1,\"files\":[\"a\\\\b.parquet\"]}", "{\"generation\":1,\"files\":[\"a.json\"]}"
    })
    void aMalformedReferenceManifestIsOneErrorNamingIt(String json) throws Exception {
        t.put("a.parquet");
        t.put("b.parquet");
        putReference(json, NOW);
        ManifestException e = assertThrows(ManifestException.class, () -> t.reader.snapshot(P));
        assertEquals(REF, e.manifestKey());
        assertTrue(e.getMessage().startsWith("manifest " + REF + ": "), e.getMessage());
        assertTrue(e.getMessage().length() < 400, e.getMessage());
        // GC leaves the partition whole, and reports it.
        PartitionGcResult r = gc(NOW.plus(Duration.ofDays(1))).collect(P);
        assertEquals(List.of(), r.deletedKeys());
        assertTrue(r.errors().get(0).contains(REF), r.errors().toString());
        assertTrue(t.exists(P.dataPrefix() + "a.parquet") && t.exists(P.dataPrefix() + "b.parquet"));
    }

    @Test
    void onceAManifestOfOursExistsItRulesAndTheReferenceManifestIsSupersededUnread() throws Exception {
        String in = t.ingestName();
        String out = t.compactedName();
        String late = t.ingestName();
        t.put(in);
        t.put(out);
        t.put(late);
        putReference("garbage that is never read again", NOW);
        t.putManifest(P, Manifest.of(8, List.of(out), List.of(new Retired(in, NOW)), null), NOW);
        PartitionSnapshot s = t.reader.snapshot(P);
        assertFalse(s.ruledByReference());
        assertEquals(8, s.generation());
        assertEquals(new TreeSet<>(List.of(out, late)), new TreeSet<>(names(s.live())));
        assertEquals(List.of(ManifestKeys.REFERENCE_NAME), names(s.supersededManifests()));
    }

    @Test
    void theFirstCommitTakesOverAtTheNextGenerationRetiringInputsAndReferenceOrphans() throws Exception {
        Instant old = NOW.minus(Duration.ofHours(2));
        String a = t.ingestName();
        String b = t.ingestName();
        String kept = "0b6f3c6e-5a39-4d57-9a1e-0c4a3d2b1f00.parquet";
        String orphan = t.ingestName();
        String orphanOther = "x.parquet";
        String lostOutput = t.compactedName();
        for (String f : List.of(a, b, kept, orphan, orphanOther, lostOutput)) {
            t.put(P, f, old);
        }
        putReference(reference(41, List.of(a, b, kept)), old);
        PartitionSnapshot s = t.reader.snapshot(P);

        String out = t.compactedName();
        t.put(P, out, NOW);
        Manifest next = NextManifest.from(s, new CommitRecord(NOW, List.of(a, b), out, 10, 20, 15, "10:c"));
        assertEquals(42, next.generation(), "the reference generation continues in ours");
        assertEquals(new TreeSet<>(List.of(kept, out)), new TreeSet<>(next.files()));
        assertEquals(new TreeSet<>(List.of(a, b, orphan, orphanOther)), next.retiredNames());
        assertTrue(next.retired().stream().allMatch(r -> r.at().equals(NOW)));
        CommitResult cr = committer(NOW).commit(P, s.generation(), next);
        assertTrue(cr.committed(), cr.toString());
        assertEquals(ManifestKeys.key(P, 42), cr.manifestKey());
        t.touch(cr.manifestKey(), NOW); // the test's clock, not the wall clock

        PartitionSnapshot after = t.reader.snapshot(P);
        assertFalse(after.ruledByReference());
        assertEquals(42, after.generation());
        assertEquals(new TreeSet<>(List.of(kept, out)), new TreeSet<>(names(after.live())));
        assertEquals(new TreeSet<>(List.of(a, b, orphan, orphanOther)), new TreeSet<>(names(after.retiredPresent())));
        assertEquals(List.of(lostOutput), names(after.orphans()));
        assertEquals(List.of(ManifestKeys.REFERENCE_NAME), names(after.supersededManifests()));

        // Within the grace of the takeover nothing retired or superseded goes (the old orphan output may).
        assertEquals(List.of(P.dataPrefix() + lostOutput), gc(NOW.plus(GRACE)).run(PartitionFilter.all()).deletedKeys());
        GcReport r = gc(NOW.plus(GRACE).plusSeconds(1)).run(PartitionFilter.all());
        assertEquals(List.of(), r.errors());
        Set<String> expected = new TreeSet<>();
        for (String f : List.of(a, b, orphan, orphanOther, ManifestKeys.REFERENCE_NAME)) {
            expected.add(P.dataPrefix() + f);
        }
        assertEquals(expected, new TreeSet<>(r.deletedKeys()));
        PartitionSnapshot collected = t.reader.snapshot(P);
        assertEquals(new TreeSet<>(List.of(kept, out)), new TreeSet<>(names(collected.live())));
        assertEquals(List.of(ManifestKeys.key(P, 42)), collected.listing().stream().map(ObjectInfo::key)
                .filter(k -> !k.endsWith(FileNames.PARQUET)).toList());
    }

    @Test
    void anExpiryTakesOverToo() throws Exception {
        String a = t.ingestName();
        String orphan = t.ingestName();
        t.put(a);
        t.put(orphan);
        putReference(reference(3, List.of(a)), NOW);
        PartitionSnapshot s = t.reader.snapshot(P);
        Manifest next = NextManifest.from(s, CommitRecord.expiry(NOW, List.of(a), 10, 100, "retention 30d"));
        assertEquals(4, next.generation());
        assertEquals(List.of(), next.files());
        assertEquals(new TreeSet<>(List.of(a, orphan)), next.retiredNames());
        assertTrue(committer(NOW).commit(P, 3, next).committed());
        assertEquals(List.of(), t.reader.snapshot(P).live());
    }

    @Test
    void anAuditDayIsNotGovernedByAManifestJson() throws Exception {
        String day = "audit/tenant_id=acme/year=2026/month=11/day=29/";
        String event = t.ingestName();
        t.store.put(day + event, "event".getBytes(StandardCharsets.UTF_8));
        t.store.put(day + ManifestKeys.REFERENCE_NAME, "{\"generation\":1,\"files\":[]}"
                .getBytes(StandardCharsets.UTF_8));
        PartitionSnapshot s = t.reader.snapshot(P, day);
        assertFalse(s.ruledByReference());
        assertEquals(0, s.generation());
        assertEquals(List.of(event), names(s.live()));
        assertEquals(List.of(ManifestKeys.REFERENCE_NAME), names(s.ignored()));
    }

    @Test
    void aTakeoverRaceHasOneWinnerAtTheNextGeneration() throws Exception {
        String a = t.ingestName();
        String b = t.ingestName();
        t.put(a);
        t.put(b);
        putReference(reference(5, List.of(a, b)), NOW);
        PartitionSnapshot s = t.reader.snapshot(P);
        String out1 = t.compactedName();
        String out2 = t.compactedName();
        t.put(out1);
        t.put(out2);
        Manifest m1 = NextManifest.from(s, new CommitRecord(NOW, List.of(a, b), out1, 2, 2, 2, "2:c"));
        Manifest m2 = NextManifest.from(s, new CommitRecord(NOW, List.of(a, b), out2, 2, 2, 2, "2:c"));
        assertTrue(committer(NOW).commit(P, 5, m1).committed());
        CommitResult lost = committer(NOW).commit(P, 5, m2);
        assertEquals(CommitResult.Status.LOST, lost.status(), lost.toString());
        assertEquals(List.of(out1), names(t.reader.snapshot(P).live()));
    }

    @Test
    void whileTheReferenceManifestRulesGcCollectsOldOrphansAndNeverANamedFile() throws Exception {
        Instant old = NOW.minus(Duration.ofDays(2));
        String named = t.ingestName();
        String oldOrphan = t.ingestName();
        String youngOrphan = t.ingestName();
        t.put(P, named, old);
        t.put(P, oldOrphan, old);
        t.put(P, youngOrphan, NOW);
        putReference(reference(2, List.of(named)), old);
        GcReport r = gc(NOW.plus(GRACE).minusSeconds(1)).run(PartitionFilter.all());
        assertEquals(List.of(P.dataPrefix() + oldOrphan), r.deletedKeys());
        assertTrue(t.exists(P.dataPrefix() + named) && t.exists(P.dataPrefix() + youngOrphan) && t.exists(REF));
        assertEquals(List.of(named), names(t.reader.snapshot(P).live()));
    }

    /**
     * Random reference partitions: the live set is exactly the named files; after the takeover commit nothing that
     * was not live becomes live, the live set is the named files − inputs + output, and GC past the grace leaves
     * exactly the live files and our manifest.
     */
    @Test
    void propertyReferencePartitionsReadAndTakeOverExactly() throws Exception {
        long master = new Random().nextLong();
        System.out.println("reference manifest property test master seed: " + master);
        Random seeds = new Random(master);
        for (int i = 0; i < 100; i++) {
            long seed = seeds.nextLong();
            try {
                checkOneRandomPartition(root.resolve("case" + i), seed);
            } catch (AssertionError | Exception e) {
                throw new AssertionError("failed for case seed " + seed + " (master " + master + ")", e);
            }
        }
    }

    private void checkOneRandomPartition(Path dir, long seed) throws Exception {
        Random rnd = new Random(seed);
        TestPartitions c = new TestPartitions(dir, seed);
        Instant old = NOW.minus(Duration.ofHours(1));
        List<String> all = new ArrayList<>();
        int n = 1 + rnd.nextInt(8);
        for (int i = 0; i < n; i++) {
            String name = switch (rnd.nextInt(3)) {
                case 0 -> c.ingestName();
                case 1 -> c.compactedName();
                default -> "ref-" + i + ".parquet";
            };
            all.add(name);
            c.put(P, name, old);
        }
        List<String> named = all.stream().filter(f -> rnd.nextBoolean()).toList();
        long generation = rnd.nextInt(1000);
        String key = P.dataPrefix() + ManifestKeys.REFERENCE_NAME;
        c.store.put(key, reference(generation, named).getBytes(StandardCharsets.UTF_8));
        c.touch(key, old);

        PartitionSnapshot s = c.reader.snapshot(P);
        assertEquals(new TreeSet<>(named), new TreeSet<>(names(s.live())));
        Set<String> notNamed = new HashSet<>(all);
        named.forEach(notNamed::remove);
        assertEquals(notNamed, new HashSet<>(names(s.orphans())));
        assertEquals(all.size(), s.live().size() + s.orphans().size(), "each file in one class");
        if (rnd.nextBoolean()) {
            // GC while manifest.json rules: the orphans go, every named file and manifest.json stay.
            GcReport early = new GarbageCollector(c.store, new TableLayout(c.store), c.reader,
                    new GcOptions(GRACE, false), Clock.fixed(NOW, ZoneOffset.UTC)).run(PartitionFilter.all());
            assertEquals(List.of(), early.errors());
            Set<String> expected = new TreeSet<>(named);
            expected.add(ManifestKeys.REFERENCE_NAME);
            assertEquals(expected, new TreeSet<>(names(c.store.listObjects(P.dataPrefix()))));
            s = c.reader.snapshot(P);
            assertEquals(new TreeSet<>(named), new TreeSet<>(names(s.live())));
        }
        if (named.isEmpty()) {
            return;
        }
        List<String> inputs = named.stream().filter(f -> rnd.nextBoolean()).sorted().toList();
        String out = c.compactedName();
        c.put(P, out, NOW);
        Manifest next = NextManifest.from(s, new CommitRecord(NOW, inputs, out, 1, 1, 1, "1:c"));
        assertEquals(generation + 1, next.generation());
        assertTrue(ManifestCommitter.forGcGrace(c.store, c.codec, Clock.fixed(NOW, ZoneOffset.UTC), GRACE)
                .commit(P, generation, next).committed());
        c.touch(ManifestKeys.key(P, generation + 1), NOW);
        Set<String> expectedLive = new TreeSet<>(named);
        inputs.forEach(expectedLive::remove);
        expectedLive.add(out);
        assertEquals(expectedLive, new TreeSet<>(names(c.reader.snapshot(P).live())));

        GcReport r = new GarbageCollector(c.store, new TableLayout(c.store), c.reader, new GcOptions(GRACE, false),
                Clock.fixed(NOW.plus(GRACE).plusSeconds(1), ZoneOffset.UTC)).run(PartitionFilter.all());
        assertEquals(List.of(), r.errors());
        Set<String> left = new TreeSet<>(names(c.store.listObjects(P.dataPrefix())));
        Set<String> expectedLeft = new TreeSet<>(expectedLive);
        expectedLeft.add(FileNames.manifestName(generation + 1));
        assertEquals(expectedLeft, left);
        assertEquals(expectedLive, new TreeSet<>(names(c.reader.snapshot(P).live())));
    }
}
