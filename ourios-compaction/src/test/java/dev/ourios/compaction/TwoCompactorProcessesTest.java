package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.s3.S3ObjectStore;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.ingest.IngestWriter;
import dev.ourios.testkit.ChildJvm;
import dev.ourios.testkit.LandingLedger;
import dev.ourios.testkit.TestSeed;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two compactor JVMs sweep the same S3 prefix at once, over and over, while this JVM lands late files into the
 * sealed partitions they compact. At the end every partition has one live file (or its main file and one tail
 * file, storage.md §4.1) holding exactly the rows landed,
 * every generation was committed by exactly one process, and every lost commit race was a noop, never an error.
 */
class TwoCompactorProcessesTest {
    @TempDir
    Path dir;

    @Test
    // Among the longest tests (1-2 minutes on a loaded 2-core machine): a bound above the 5 m default.
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void two_compactor_processes_and_a_late_writer_lose_and_duplicate_nothing() throws Exception {
        long seed = TestSeed.announce(TwoCompactorProcessesTest.class);
        Random rnd = new Random(seed);
        StoreBackend.S3 s3 = StoreBackend.S3.start();
        try {
            S3ObjectStore store = s3.newStore();
            GeneratorSpec spec = TestStores.spec(List.of("a", "b"), 2, 4, 200, rnd.nextLong());
            TestStores.generate(store, spec);
            LogGenerator gen = new LogGenerator(spec);
            LandingLedger<PartitionKey, LogRecord> ledger = new LandingLedger<>(TestStores::identity);
            for (String t : spec.tenants()) {
                for (int h = 0; h < spec.hours(); h++) {
                    PartitionKey p = gen.partition(t, h);
                    ledger.addBase(p, TestStores.liveRows(store, p));
                }
            }

            Path go = dir.resolve("go");
            Path stop = dir.resolve("stop");
            List<ChildJvm> children = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    children.add(child(s3, store.config().prefix(), i, go, stop));
                }
                Files.writeString(go, "go");
                IngestWriter writer = new IngestWriter(store);
                for (int i = 0; i < 12; i++) {
                    // Deliberate pacing, not a wait for anything: spreads the landings over the compactors'
                    // sweeps at random moments, so some land between a sweep's plan and its commit.
                    Thread.sleep(300 + rnd.nextInt(400));
                    String t = spec.tenants().get(rnd.nextInt(spec.tenants().size()));
                    int h = rnd.nextInt(spec.hours());
                    PartitionKey p = gen.partition(t, h);
                    List<LogRecord> late = ledger.claim(p, new LogGenerator(TestStores.spec(spec.tenants(),
                            spec.hours(), 1, 20 + rnd.nextInt(80), rnd.nextLong())).file(t, h, 0));
                    int file = ledger.beginLate(p, late);
                    writer.writeFile(p, late);
                    ledger.completeLate(file);
                }
                Files.writeString(stop, "stop");

                for (int i = 0; i < children.size(); i++) {
                    ChildJvm c = children.get(i);
                    int exit = c.waitFor(Duration.ofMinutes(4));
                    assertEquals(0, exit, "compactor " + i + " failed (seed " + seed + "):\n" + c.output());
                }
            } finally {
                children.forEach(ChildJvm::close);
            }
            List<String> lines = new ArrayList<>();
            for (ChildJvm c : children) {
                c.stdoutLines().stream().filter(l -> l.startsWith("RESULT") || l.startsWith("SWEEP-ERROR"))
                        .forEach(lines::add);
            }

            String ctx = "seed " + seed + "\n" + String.join("\n", lines);
            Set<String> committedGenerations = new HashSet<>();
            Map<String, Long> maxGeneration = new HashMap<>();
            int lostRaces = 0;
            for (String l : lines) {
                String[] f = l.split("\t", -1);
                assertEquals("RESULT", f[0], "no sweep-level errors: " + ctx);
                assertTrue(!f[3].equals("error"), "no partition errors: " + l + "\n" + ctx);
                String key = f[1] + "/" + f[2];
                if (f[3].equals("committed")) {
                    assertTrue(committedGenerations.add(key + "#" + f[4]),
                            "generation " + f[4] + " of " + key + " committed twice: " + ctx);
                    maxGeneration.merge(key, Long.parseLong(f[4]), Math::max);
                } else if (f[6].contains("lost the commit race")) {
                    lostRaces++;
                }
            }
            for (PartitionKey p : ledger.partitions()) {
                PartitionSnapshot s = TestStores.snapshot(store, p);
                String key = p.tenantId() + "/" + p.hourLabel();
                assertTrue(s.live().size() <= 2, key + " ends with one live file, or its main file and one tail file: "
                        + s.live() + "\n" + ctx);
                assertEquals(ledger.acknowledged(p), TestStores.identities(TestStores.liveRows(store, p)),
                        key + ": every row exactly once, " + ctx);
                // Generations 1..N each have exactly one committer: none skipped, none doubled.
                for (long g = 1; g <= s.generation(); g++) {
                    assertTrue(committedGenerations.contains(key + "#" + g), key + " generation " + g + ": " + ctx);
                }
                assertEquals(s.generation(), maxGeneration.getOrDefault(key, 0L), ctx);
            }
            System.out.printf("two compactors: %d commits, %d lost races (noop), %d partition results%n",
                    committedGenerations.size(), lostRaces, lines.size());
            assertTrue(lostRaces > 0, "both processes start together on the same partitions, so some commit races "
                    + "must have happened: " + ctx);
        } finally {
            s3.shutdown();
        }
    }

    private ChildJvm child(StoreBackend.S3 s3, String prefix, int i, Path go, Path stop) throws Exception {
        return ChildJvm.main(S3SweeperMain.class).name("compactor-" + i).heap("256m")
                .jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
                .property("org.slf4j.simpleLogger.defaultLogLevel", "warn")
                .args(s3.server().endpoint().toString(), StoreBackend.S3.BUCKET, prefix,
                        dir.resolve("scratch-" + i).toString(), go.toString(), stop.toString())
                .start();
    }
}
