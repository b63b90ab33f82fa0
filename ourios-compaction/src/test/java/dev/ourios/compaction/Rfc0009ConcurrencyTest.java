package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC0009.3, query atomicity: counts of a partition taken while it is compacted again and again and late files
 * land in it see every acknowledged row exactly once, never a torn mix of generations ({@link ConcurrencyRound}).
 * Two rounds: the default GC grace, and GC with a zero grace after every commit (the planned-file-vanished path).
 *
 * <p>CI: each round runs about {@value #CI_ROUND_MILLIS} ms (longer only until its minimums are met).
 * {@code -Dourios.soak=true}: each round runs {@code ourios.soak.seconds} (default {@value #SOAK_SECONDS}) seconds.
 */
class Rfc0009ConcurrencyTest {
    static final long CI_ROUND_MILLIS = 1500;
    static final long SOAK_SECONDS = 120;

    @TempDir
    Path dir;

    @Test
    void rfc0009_3_counts_during_compaction_ingest_and_gc_see_every_landed_row_exactly_once() throws Exception {
        boolean soak = Boolean.getBoolean("ourios.soak");
        long roundMillis = soak ? Long.getLong("ourios.soak.seconds", SOAK_SECONDS) * 1000 : CI_ROUND_MILLIS;
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        System.out.println("rfc0009_3: seed " + seed + ", rounds of " + roundMillis + " ms");
        Random rnd = new Random(seed);
        for (boolean gcGraceZero : new boolean[] {false, true}) {
            long roundSeed = rnd.nextLong();
            List<String> failures = new ArrayList<>();
            ConcurrencyRound round = new ConcurrencyRound(dir.resolve(gcGraceZero ? "grace0" : "default"),
                    gcGraceZero, roundSeed);
            ConcurrencyRound.Stats s = round.run(roundMillis, Math.max(roundMillis, 60_000), failures);
            String name = gcGraceZero ? "gc grace 0" : "default gc grace";
            System.out.println("rfc0009_3 " + name + ": " + s);
            assertEquals(List.of(), failures, name + ", seed " + seed);
            assertTrue(round.minimumsMet(), name + ": too little happened to prove anything: " + s);
            if (!gcGraceZero) {
                assertEquals(0, s.vanishFailures(), s.toString());
                assertEquals(0, s.engineReResolves() + s.rawReResolves(), "nothing is collected within the grace");
            }
        }
    }
}
