package dev.ourios.table;

import static dev.ourios.table.TestPartitions.NOW;
import static dev.ourios.table.TestPartitions.P;
import static dev.ourios.table.TestPartitions.names;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GarbageCollectorTest {
    private static final Duration GRACE = GcOptions.DEFAULT_GRACE;

    @TempDir
    Path root;

    private static GarbageCollector gc(TestPartitions t, Instant now, boolean dryRun) {
        return new GarbageCollector(t.store, new TableLayout(t.store), t.reader, new GcOptions(GRACE, dryRun),
                Clock.fixed(now, ZoneOffset.UTC));
    }

    @Test
    void compactionLifecycleKeepsRetiredInputsForTheGraceThenCollectsThem() throws Exception {
        TestPartitions t = new TestPartitions(root, 1);
        Instant ingestTime = NOW.minus(Duration.ofHours(1));
        String in1 = t.ingestName();
        String in2 = t.ingestName();
        t.put(P, in1, ingestTime);
        t.put(P, in2, ingestTime);
        PartitionSnapshot s0 = t.reader.snapshot(P);
        String out = t.compactedName();
        t.put(P, out, NOW);
        Manifest m1 = NextManifest.from(s0, new CommitRecord(NOW, List.of(in1, in2), out, 2, 2, 2, "c"));
        ManifestCommitter committer = ManifestCommitter.forGcGrace(t.store, t.codec, Clock.fixed(NOW, ZoneOffset.UTC), GRACE);
        assertTrue(committer.commit(P, 0, m1).committed());
        String late = t.ingestName();
        t.put(P, late, ingestTime); // old, but never retired: must survive every GC

        // Within the grace nothing goes: a reader that planned on generation 0 may still be reading the inputs.
        assertEquals(List.of(), gc(t, NOW.plus(GRACE), false).run(PartitionFilter.all()).deletedKeys());

        GcReport dry = gc(t, NOW.plus(GRACE).plusSeconds(1), true).run(PartitionFilter.all());
        assertEquals(List.of(P.dataPrefix() + in1, P.dataPrefix() + in2).stream().sorted().toList(), dry.deletedKeys());
        assertTrue(dry.dryRun());
        assertTrue(t.exists(P.dataPrefix() + in1), "dry run deleted something");

        GcReport real = gc(t, NOW.plus(GRACE).plusSeconds(1), false).run(PartitionFilter.all());
        assertEquals(dry.deletedKeys(), real.deletedKeys());
        assertTrue(real.bytesReclaimed() > 0);
        assertEquals(List.of(), real.errors());
        assertEquals(List.of(late, out).stream().sorted().toList(), names(t.reader.snapshot(P).live()));
        assertEquals(List.of(), gc(t, NOW.plus(GRACE).plusSeconds(1), false).run(PartitionFilter.all()).deletedKeys());

        // The next commit keeps the collected ingest names retired: a writer that lands one of those names again
        // (a WAL replay) must not make its rows visible twice.
        PartitionSnapshot s1 = t.reader.snapshot(P);
        String out2 = t.compactedName();
        t.put(P, out2, NOW);
        Manifest m2 = NextManifest.from(s1, new CommitRecord(NOW, List.of(late, out), out2, 3, 3, 3, "c"));
        assertEquals(Set.of(in1, in2, late, out), m2.retiredNames());
        assertTrue(committer.commit(P, 1, m2).committed());
        t.put(P, in1, NOW.plus(GRACE)); // landed again under its collected name
        assertEquals(List.of(out2), names(t.reader.snapshot(P).live()));

        // Once the output of generation 2 is retired and collected too, the commit after that forgets it.
        t.store.delete(P.dataPrefix() + out);
        PartitionSnapshot s2 = t.reader.snapshot(P);
        String out3 = t.compactedName();
        t.put(P, out3, NOW);
        Manifest m3 = NextManifest.from(s2, new CommitRecord(NOW, List.of(out2), out3, 3, 3, 3, "c"));
        assertEquals(Set.of(in1, in2, late, out2), m3.retiredNames());
    }

    @Test
    void partitionWithAnInvalidManifestIsSkippedWithAnError() throws Exception {
        TestPartitions t = new TestPartitions(root, 2);
        Instant old = NOW.minus(Duration.ofDays(1));
        String orphan = t.put(P, t.compactedName(), old);
        String temp = t.put(P, ".x.parquet.tmp-0011", old);
        t.putManifestBytes(P, 1, "{\"format\":1,\"generation\":1,\"files\":[\"../x.parquet\"]}", old);
        t.putManifestBytes(P, 2, "{\"format\":1,\"generation\":3,\"files\":[]}", old);
        PartitionKey other = new PartitionKey("acme", 2026, 11, 29, 11);
        String otherOrphan = t.put(other, t.compactedName(), old);

        GcReport report = gc(t, NOW, false).run(PartitionFilter.all());
        assertEquals(List.of(otherOrphan), report.deletedKeys());
        assertEquals(1, report.errors().size(), report.errors().toString());
        assertTrue(report.errors().get(0).contains("manifest.00000000000000000002.json"), report.errors().get(0));
        assertTrue(t.exists(orphan) && t.exists(temp) && t.exists(ManifestKeys.key(P, 1)));
    }

    @Test
    void collectsOldOrphansTempsAndSupersededManifestsOnly() throws Exception {
        TestPartitions t = new TestPartitions(root, 3);
        Instant old = NOW.minus(GRACE).minusSeconds(1);
        Instant young = NOW.minus(GRACE).plusSeconds(1);
        String out = t.put(P, t.compactedName(), old);
        String oldOrphan = t.put(P, t.compactedName(), old);
        String youngOrphan = t.put(P, t.compactedName(), young);
        String oldTemp = t.put(P, "." + t.ingestName() + ".tmp-aa", old);
        String youngTemp = t.put(P, "." + t.ingestName() + ".tmp-bb", young);
        String oldIngest = t.put(P, t.ingestName(), NOW.minus(Duration.ofDays(30)));
        String other = t.put(P, "README.parquet.txt", old);
        String out1 = out.substring(out.lastIndexOf('/') + 1);
        t.putManifest(P, Manifest.of(1, List.of(out1), List.of(), null), old.minusSeconds(60));
        t.putManifest(P, Manifest.of(2, List.of(out1), List.of(), null), old); // supersedes 1 long ago
        t.putManifest(P, Manifest.of(3, List.of(out1), List.of(), null), young); // supersedes 2 just now
        GcReport r = gc(t, NOW, false).run(PartitionFilter.all());
        assertEquals(new TreeSet<>(List.of(oldOrphan, oldTemp, ManifestKeys.key(P, 1))), new TreeSet<>(r.deletedKeys()));
        for (String kept : List.of(out, youngOrphan, youngTemp, oldIngest, other, ManifestKeys.key(P, 2),
                ManifestKeys.key(P, 3))) {
            assertTrue(t.exists(kept), kept);
        }
    }

    /** Random partition states: GC deletes exactly what the rules allow, nothing live, and is idempotent. */
    @Test
    void propertyGcDeletesExactlyTheExpiredNonLiveObjects() throws Exception {
        long master = new Random().nextLong();
        System.out.println("GC property test master seed: " + master);
        Random seeds = new Random(master);
        for (int i = 0; i < 150; i++) {
            long seed = seeds.nextLong();
            try {
                checkOneRandomState(root.resolve("case" + i), seed);
            } catch (AssertionError | Exception e) {
                throw new AssertionError("failed for case seed " + seed + " (master " + master + ")", e);
            }
        }
    }

    private void checkOneRandomState(Path dir, long seed) throws Exception {
        Random rnd = new Random(seed);
        TestPartitions t = new TestPartitions(dir, seed);
        Set<String> expected = new HashSet<>();
        Set<String> mustStay = new HashSet<>();

        List<String> named = new ArrayList<>();
        List<Retired> retired = new ArrayList<>();
        for (int k = rnd.nextInt(3); k > 0; k--) {
            String n = rnd.nextBoolean() ? t.compactedName() : t.ingestName();
            named.add(n);
            mustStay.add(t.put(P, n, randomTime(rnd)));
        }
        for (int k = rnd.nextInt(5); k > 0; k--) {
            String n = rnd.nextBoolean() ? t.compactedName() : t.ingestName();
            Instant at = randomTime(rnd);
            retired.add(new Retired(n, at));
            if (rnd.nextInt(10) < 7) {
                Instant mtime = rnd.nextBoolean() ? at.minusSeconds(rnd.nextInt(120)) : randomTime(rnd);
                String key = t.put(P, n, mtime);
                if (expired(at) && expired(mtime)) {
                    expected.add(key);
                } else {
                    mustStay.add(key);
                }
            }
        }
        for (int k = rnd.nextInt(4); k > 0; k--) { // ingest files not retired: late data, never collected
            mustStay.add(t.put(P, t.ingestName(), randomTime(rnd)));
        }
        for (int k = rnd.nextInt(3); k > 0; k--) {
            Instant mtime = randomTime(rnd);
            String key = t.put(P, t.compactedName(), mtime);
            (expired(mtime) ? expected : mustStay).add(key);
        }
        for (int k = rnd.nextInt(3); k > 0; k--) {
            Instant mtime = randomTime(rnd);
            String key = t.put(P, "." + t.ingestName() + ".tmp-" + k, mtime);
            (expired(mtime) ? expected : mustStay).add(key);
        }
        if (rnd.nextBoolean()) {
            mustStay.add(t.put(P, "notes-" + rnd.nextInt(9) + ".txt", randomTime(rnd).minus(Duration.ofDays(9))));
        }
        boolean hasManifest = !named.isEmpty() || !retired.isEmpty() || rnd.nextBoolean();
        if (hasManifest) {
            int current = 1 + rnd.nextInt(5);
            Instant commitAt = rnd.nextBoolean() ? randomTime(rnd) : null;
            CommitRecord commit = commitAt == null ? null
                    : new CommitRecord(commitAt, List.of(), named.isEmpty() ? "o.parquet" : named.get(0), 1, 1, 1, "c");
            Map<Long, Instant> mtimes = new HashMap<>();
            for (long g = 1; g < current; g++) {
                if (rnd.nextBoolean()) {
                    mtimes.put(g, randomTime(rnd));
                }
            }
            mtimes.put((long) current, randomTime(rnd));
            List<Long> gens = new ArrayList<>(new TreeSet<>(mtimes.keySet()));
            for (int k = 0; k < gens.size(); k++) {
                long g = gens.get(k);
                Manifest m = g == current ? Manifest.of(g, named, retired, commit) : Manifest.of(g, List.of(), List.of(), null);
                String key = t.putManifest(P, m, mtimes.get(g));
                if (k + 1 < gens.size()) {
                    long next = gens.get(k + 1);
                    Instant supersededAt = mtimes.get(next);
                    if (next == current && commitAt != null && commitAt.isAfter(supersededAt)) {
                        supersededAt = commitAt;
                    }
                    (expired(supersededAt) && expired(mtimes.get(g)) ? expected : mustStay).add(key);
                } else {
                    mustStay.add(key);
                }
            }
        }

        PartitionSnapshot before = t.reader.snapshot(P);
        Map<String, ObjectInfo> listed = new HashMap<>();
        before.listing().forEach(o -> listed.put(o.key(), o));
        Set<String> retiredNames = before.manifest().map(Manifest::retiredNames).orElse(Set.of());

        List<String> dry = gc(t, NOW, true).collect(P).deletedKeys();
        assertEquals(before.listing(), t.reader.snapshot(P).listing(), "dry run changed the partition");

        PartitionGcResult result = gc(t, NOW, false).collect(P);
        assertEquals(List.of(), result.errors());
        assertEquals(dry, result.deletedKeys());
        assertEquals(new TreeSet<>(expected), new TreeSet<>(result.deletedKeys()));
        Set<String> liveKeys = new HashSet<>();
        before.live().forEach(o -> liveKeys.add(o.key()));
        for (String key : result.deletedKeys()) {
            ObjectInfo o = listed.get(key);
            assertFalse(liveKeys.contains(key), "deleted live " + key);
            assertFalse(mustStay.contains(key), "deleted protected " + key);
            assertTrue(expired(o.lastModified()), "deleted young " + key);
            if (FileNames.isIngestFile(o.name())) {
                assertTrue(retiredNames.contains(o.name()), "deleted non-retired ingest file " + key);
            }
            assertFalse(t.exists(key));
        }
        for (String key : mustStay) {
            assertTrue(t.exists(key), "lost " + key);
        }
        PartitionSnapshot after = t.reader.snapshot(P);
        assertEquals(before.live(), after.live());
        assertEquals(List.of(), gc(t, NOW, false).collect(P).deletedKeys(), "second run deleted something");
    }

    private static boolean expired(Instant t) {
        return t.isBefore(NOW.minus(GRACE));
    }

    /** Times around the grace boundary (exactly on it counts as young) and far on either side. */
    private static Instant randomTime(Random rnd) {
        Instant boundary = NOW.minus(GRACE);
        return switch (rnd.nextInt(6)) {
            case 0 -> boundary;
            case 1 -> boundary.minusMillis(1);
            case 2 -> boundary.plusMillis(1);
            case 3 -> NOW;
            default -> NOW.minusSeconds(rnd.nextInt((int) GRACE.toSeconds() * 3));
        };
    }

    /**
     * Audit hold, random chains of superseded manifests all past the grace: GC deletes exactly the ones whose
     * commit is audited, keeps every other, and keeps all of them when whether they are audited cannot be known.
     */
    @Test
    void propertyGcKeepsEverySupersededManifestWhoseCommitIsNotAudited() throws Exception {
        long master = new Random().nextLong();
        System.out.println("GC audit-hold property test master seed: " + master);
        Random seeds = new Random(master);
        for (int i = 0; i < 60; i++) {
            long seed = seeds.nextLong();
            try {
                checkAuditHold(root.resolve("hold" + i), seed);
            } catch (AssertionError | Exception e) {
                throw new AssertionError("failed for case seed " + seed + " (master " + master + ")", e);
            }
        }
    }

    private void checkAuditHold(Path dir, long seed) throws Exception {
        Random rnd = new Random(seed);
        TestPartitions t = new TestPartitions(dir, seed);
        Instant old = NOW.minus(GRACE).minus(Duration.ofHours(1));
        String out = t.put(P, t.compactedName(), old);
        String outName = out.substring(out.lastIndexOf('/') + 1);
        int current = 2 + rnd.nextInt(6);
        Set<Long> audited = new HashSet<>();
        Set<String> expected = new TreeSet<>();
        Set<String> superseded = new TreeSet<>();
        for (long g = 1; g <= current; g++) {
            if (g < current && rnd.nextInt(4) == 0) {
                continue; // collected earlier
            }
            CommitRecord c = new CommitRecord(old.plusSeconds(g), List.of(), outName, 1, 1, 1, "1:c");
            String key = t.putManifest(P, Manifest.of(g, List.of(outName), List.of(), c), old.plusSeconds(g));
            boolean isAudited = rnd.nextBoolean();
            if (isAudited) {
                audited.add(g);
            }
            if (g < current) {
                superseded.add(key);
                if (isAudited) {
                    expected.add(key);
                }
            }
        }
        CommitAudit unknowable = (p, m) -> {
            throw new java.io.IOException("injected: the audit stream cannot be read");
        };
        GcReport none = new GarbageCollector(t.store, new TableLayout(t.store), t.reader, new GcOptions(GRACE, false),
                Clock.fixed(NOW, ZoneOffset.UTC), FileRetention.NONE, unknowable).run(PartitionFilter.all());
        assertEquals(List.of(), none.deletedKeys(), "unknown: every superseded manifest is kept");
        GcReport r = new GarbageCollector(t.store, new TableLayout(t.store), t.reader, new GcOptions(GRACE, false),
                Clock.fixed(NOW, ZoneOffset.UTC), FileRetention.NONE,
                (p, m) -> audited.contains(m.generation())).run(PartitionFilter.all());
        assertEquals(expected, new TreeSet<>(r.deletedKeys()));
        for (String key : superseded) {
            assertEquals(!expected.contains(key), t.exists(key), key);
        }
        assertTrue(t.exists(ManifestKeys.key(P, current)), "the current manifest stays");
        assertTrue(t.exists(out));
    }
}
