package dev.ourios.table;

import static dev.ourios.table.TestPartitions.NOW;
import static dev.ourios.table.TestPartitions.P;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.store.LocalObjectStore;
import dev.ourios.testkit.ChildJvm;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestCommitterTest {
    @TempDir
    Path root;
    TestPartitions t;
    ManifestCommitter committer;

    @BeforeEach
    void setUp() {
        t = new TestPartitions(root, 7);
        committer = ManifestCommitter.forGcGrace(t.store, t.codec, Clock.fixed(NOW, ZoneOffset.UTC),
                GcOptions.DEFAULT_GRACE);
    }

    private Manifest nextFor(String out, long gen) {
        return Manifest.of(gen, List.of(out), List.of(), new CommitRecord(NOW, List.of(), out, 1, 1, 1, "c"));
    }

    @Test
    void commitsOnceAndNeverOverwrites() throws Exception {
        String a = t.compactedName();
        String b = t.compactedName();
        t.put(a);
        t.put(b);
        CommitResult first = committer.commit(P, 0, nextFor(a, 1));
        assertEquals(CommitResult.Status.COMMITTED, first.status());
        byte[] committed = t.store.readAllBytes(first.manifestKey());
        CommitResult second = committer.commit(P, 0, nextFor(b, 1));
        assertEquals(CommitResult.Status.LOST, second.status());
        assertArrayEquals(committed, t.store.readAllBytes(first.manifestKey()));
        assertEquals(List.of(a), t.reader.snapshot(P).manifest().orElseThrow().files());
    }

    @Test
    void staleExpectationLosesEvenIfItsGenerationWasCollected() throws Exception {
        String a = t.compactedName();
        String b = t.compactedName();
        t.put(a);
        t.put(b);
        assertTrue(committer.commit(P, 0, nextFor(a, 1)).committed());
        assertTrue(committer.commit(P, 1, Manifest.of(2, List.of(a), List.of(), null)).committed());
        t.store.delete(ManifestKeys.key(P, 1)); // GC took the superseded generation 1
        CommitResult stale = committer.commit(P, 0, nextFor(b, 1));
        assertEquals(CommitResult.Status.LOST, stale.status());
        assertTrue(!t.exists(ManifestKeys.key(P, 1)));
    }

    @Test
    void rejectsMissingOrTooOldOutputWithoutWriting() throws Exception {
        String missing = t.compactedName();
        assertEquals(CommitResult.Status.REJECTED, committer.commit(P, 0, nextFor(missing, 1)).status());
        String old = t.compactedName();
        t.put(P, old, NOW.minus(Duration.ofMinutes(6))); // older than grace/2: GC might be collecting it
        CommitResult r = committer.commit(P, 0, nextFor(old, 1));
        assertEquals(CommitResult.Status.REJECTED, r.status());
        assertTrue(r.detail().contains(old), r.detail());
        assertTrue(!t.exists(ManifestKeys.key(P, 1)));
    }

    @Test
    void rejectsWrongGenerationAndInvalidManifests() throws Exception {
        String a = t.compactedName();
        t.put(a);
        assertThrows(IllegalArgumentException.class, () -> committer.commit(P, 0, nextFor(a, 2)));
        Manifest bad = Manifest.of(1, List.of("../" + a), List.of(), null);
        assertThrows(ManifestException.class, () -> committer.commit(P, 0, bad));
    }

    @Test
    void sixteenThreadsRaceForEachGenerationAndExactlyOneWins() throws Exception {
        int threads = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (long gen = 1; gen <= 5; gen++) {
                CyclicBarrier barrier = new CyclicBarrier(threads);
                List<String> outputs = new ArrayList<>();
                List<Future<CommitResult>> futures = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    String out = t.compactedName();
                    t.put(out);
                    outputs.add(out);
                    Manifest next = nextFor(out, gen);
                    long expected = gen - 1;
                    futures.add(pool.submit(() -> {
                        barrier.await(30, TimeUnit.SECONDS);
                        return committer.commit(P, expected, next);
                    }));
                }
                int won = 0;
                String winner = null;
                for (int i = 0; i < threads; i++) {
                    CommitResult r = futures.get(i).get(60, TimeUnit.SECONDS);
                    if (r.committed()) {
                        won++;
                        winner = outputs.get(i);
                    } else {
                        assertEquals(CommitResult.Status.LOST, r.status(), r.detail());
                    }
                }
                assertEquals(1, won, "generation " + gen);
                assertEquals(List.of(winner), t.reader.readManifest(P, gen).files());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(5, t.reader.snapshot(P).generation());
    }

    @Test
    void twoProcessesRaceAndExactlyOneWinsEachRound() throws Exception {
        int rounds = 12;
        long spacing = 150;
        long start = System.currentTimeMillis() + 5000; // time for the second JVM to start
        List<String> mine;
        List<String> theirs;
        try (ChildJvm child = ChildJvm.main(CommitRaceMain.class).args(root.toString(), Integer.toString(rounds),
                Long.toString(start), Long.toString(spacing)).start()) {
            mine = CommitRaceMain.race(root, rounds, start, spacing);
            assertEquals(0, child.waitFor(Duration.ofMinutes(2)), child.stderr());
            theirs = child.stdoutLines();
        }
        assertEquals(rounds, theirs.size(), theirs.toString());
        Map<Integer, List<String>> winners = new HashMap<>();
        for (String line : concat(mine, theirs)) {
            String[] f = line.split(" ");
            assertTrue(f[1].equals("COMMITTED") || f[1].equals("LOST"), line);
            if (f[1].equals("COMMITTED")) {
                winners.computeIfAbsent(Integer.parseInt(f[0]), k -> new ArrayList<>()).add(f[2]);
            }
        }
        // A fresh store object, as a separate reader process would have.
        TableReader reader = new TableReader(new LocalObjectStore(root), new ManifestCodec());
        for (int r = 1; r <= rounds; r++) {
            assertEquals(1, winners.getOrDefault(r, List.of()).size(), "round " + r + ": " + mine + " / " + theirs);
            assertEquals(winners.get(r), reader.readManifest(CommitRaceMain.PARTITION, r).files());
        }
        System.out.println("two-process race: this JVM won " + mine.stream().filter(l -> l.contains("COMMITTED"))
                .count() + " of " + rounds + " rounds");
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    @Test
    void nextManifestRetiresInputsForgetsCollectedOutputsAndKeepsCollectedIngestNames() throws Exception {
        String in1 = t.ingestName();
        String in2 = t.ingestName();
        String oldOut = t.compactedName();
        String goneOutput = t.compactedName();
        String gone = t.ingestName();
        String stillThere = t.ingestName();
        Instant earlier = NOW.minusSeconds(3600);
        t.put(in1);
        t.put(in2);
        t.put(oldOut);
        t.put(stillThere);
        t.putManifest(P, Manifest.of(1, List.of(oldOut),
                List.of(new Retired(gone, earlier), new Retired(goneOutput, earlier), new Retired(stillThere, earlier)),
                null), NOW);
        PartitionSnapshot s = t.reader.snapshot(P);
        String out = t.compactedName();
        Instant at = NOW.plusSeconds(1);
        Manifest next = NextManifest.from(s, new CommitRecord(at, List.of(in1, in2, oldOut), out, 3, 3, 3, "c"));
        assertEquals(2, next.generation());
        assertEquals(List.of(out), next.files());
        List<Retired> expected = new ArrayList<>(List.of(new Retired(in1, at), new Retired(in2, at),
                new Retired(oldOut, at), new Retired(stillThere, earlier), new Retired(gone, earlier)));
        // The collected output is forgotten; the collected ingest file's name stays, so a replay landing it again
        // stays invisible.
        expected.sort(java.util.Comparator.comparing(Retired::file));
        assertEquals(expected, next.retired());

        // A named file left out of the inputs stays named: dropping it would lose its rows.
        Manifest partial = NextManifest.from(s, new CommitRecord(at, List.of(in1, in2), out, 2, 2, 2, "c"));
        assertEquals(List.of(oldOut, out).stream().sorted().toList(), partial.files());

        assertThrows(IllegalArgumentException.class,
                () -> NextManifest.from(s, new CommitRecord(at, List.of(stillThere), out, 1, 1, 1, "c")));
        assertThrows(IllegalArgumentException.class,
                () -> NextManifest.from(s, new CommitRecord(at, List.of(in1), oldOut, 1, 1, 1, "c")));
    }

    @Test
    void aDayPartitionsCommitIsToldAsItsDayAndAnotherDirectorysIsNot() throws Exception {
        List<dev.ourios.core.PartitionKey> told = new ArrayList<>();
        ManifestCommitter telling = new ManifestCommitter(t.store, t.codec, Clock.fixed(NOW, ZoneOffset.UTC),
                GcOptions.DEFAULT_GRACE, told::add);
        DayPartition day = DayPartition.of(P);
        String a = t.compactedName();
        t.store.put(day.prefix() + a, new byte[] {1});
        assertTrue(telling.commit(day.label(), day.prefix(), 0, nextFor(a, 1)).committed());
        assertEquals(List.of(day.label()), told, "a day commit reaches a mirror as its day's first hour");
        String other = "audit/day=x/";
        String b = t.compactedName();
        t.store.put(other + b, new byte[] {1});
        assertTrue(telling.commit(day.label(), other, 0, nextFor(b, 1)).committed());
        assertEquals(List.of(day.label()), told, "a directory that holds no rows is not told");
    }
}
