package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.gen.GeneratorSpec;
import dev.ourios.core.gen.LogGenerator;
import dev.ourios.store.s3.S3ObjectStore;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.ingest.IngestWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two compactor JVMs sweep the same S3 prefix at once, over and over, while this JVM lands late files into the
 * sealed partitions they compact. At the end every partition has one live file holding exactly the rows landed,
 * every generation was committed by exactly one process, and every lost commit race was a noop, never an error.
 */
class TwoCompactorProcessesTest {
    @TempDir
    Path dir;

    @Test
    void two_compactor_processes_and_a_late_writer_lose_and_duplicate_nothing() throws Exception {
        long seed = Long.getLong("ourios.test.seed", System.nanoTime());
        System.out.println("TwoCompactorProcessesTest seed " + seed);
        Random rnd = new Random(seed);
        StoreBackend.S3 s3 = StoreBackend.S3.start();
        try {
            S3ObjectStore store = s3.newStore();
            GeneratorSpec spec = TestStores.spec(List.of("a", "b"), 2, 4, 200, rnd.nextLong());
            TestStores.generate(store, spec);
            LogGenerator gen = new LogGenerator(spec);
            Map<PartitionKey, List<String>> landed = new TreeMap<>();
            for (String t : spec.tenants()) {
                for (int h = 0; h < spec.hours(); h++) {
                    PartitionKey p = gen.partition(t, h);
                    landed.put(p, new ArrayList<>(TestStores.identities(TestStores.liveRows(store, p))));
                }
            }

            Path go = dir.resolve("go");
            Path stop = dir.resolve("stop");
            List<Process> children = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                children.add(child(s3, store.config().prefix(), i, go, stop));
            }
            Files.writeString(go, "go");
            IngestWriter writer = new IngestWriter(store);
            for (int i = 0; i < 12; i++) {
                Thread.sleep(300 + rnd.nextInt(400));
                String t = spec.tenants().get(rnd.nextInt(spec.tenants().size()));
                int h = rnd.nextInt(spec.hours());
                PartitionKey p = gen.partition(t, h);
                List<LogRecord> late = new LogGenerator(TestStores.spec(spec.tenants(), spec.hours(), 1,
                        20 + rnd.nextInt(80), rnd.nextLong())).file(t, h, 0);
                writer.writeFile(p, late);
                landed.get(p).addAll(TestStores.identities(late));
            }
            Files.writeString(stop, "stop");

            List<String> lines = new ArrayList<>();
            for (int i = 0; i < children.size(); i++) {
                Process c = children.get(i);
                assertTrue(c.waitFor(5, TimeUnit.MINUTES), "compactor " + i + " did not finish (seed " + seed + ")");
                String out = Files.readString(dir.resolve("child-" + i + ".out"), StandardCharsets.UTF_8);
                assertEquals(0, c.exitValue(), "compactor " + i + " failed (seed " + seed + "):\n" + out
                        + Files.readString(dir.resolve("child-" + i + ".err")));
                out.lines().filter(l -> l.startsWith("RESULT") || l.startsWith("SWEEP-ERROR")).forEach(lines::add);
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
            for (Map.Entry<PartitionKey, List<String>> e : landed.entrySet()) {
                PartitionKey p = e.getKey();
                PartitionSnapshot s = TestStores.snapshot(store, p);
                String key = p.tenantId() + "/" + p.hourLabel();
                assertEquals(1, s.live().size(), key + " ends with one live file: " + ctx);
                assertEquals(e.getValue().stream().sorted().toList(),
                        TestStores.identities(TestStores.liveRows(store, p)), key + ": every row exactly once, "
                                + ctx);
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

    private Process child(StoreBackend.S3 s3, String prefix, int i, Path go, Path stop) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), S3SweeperMain.class.getName(),
                s3.server().endpoint().toString(), StoreBackend.S3.BUCKET, prefix,
                dir.resolve("scratch-" + i).toString(), go.toString(), stop.toString())
                .redirectOutput(dir.resolve("child-" + i + ".out").toFile())
                .redirectError(dir.resolve("child-" + i + ".err").toFile())
                .start();
    }
}
