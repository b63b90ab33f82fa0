package dev.ourios.table;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.store.LocalObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * One side of the cross-process commit race: for each round r, publish an output, wait for the agreed start
 * instant, then try to commit generation r. Prints {@code <round> <STATUS> <output>} per round.
 * Arguments: store root, rounds, start epoch millis, round spacing millis.
 */
public final class CommitRaceMain {
    static final PartitionKey PARTITION = new PartitionKey("race", 2026, 11, 29, 10);

    public static void main(String[] args) throws Exception {
        System.out.println(String.join("\n", race(Path.of(args[0]), Integer.parseInt(args[1]),
                Long.parseLong(args[2]), Long.parseLong(args[3]))));
    }

    static List<String> race(Path root, int rounds, long startMillis, long spacingMillis) throws Exception {
        LocalObjectStore store = new LocalObjectStore(root);
        ManifestCommitter committer = new ManifestCommitter(store, new ManifestCodec(), Clock.systemUTC(),
                Duration.ofMinutes(5));
        Uuid7 uuids = Uuid7.system();
        List<String> lines = new java.util.ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            String out = uuids.next() + FileNames.COMPACTED;
            store.put(PARTITION.dataPrefix() + out, out.getBytes(StandardCharsets.UTF_8));
            Manifest next = Manifest.of(r, List.of(out), List.of(),
                    new CommitRecord(Clock.systemUTC().instant(), List.of(), out, r, 0, out.length(), "race"));
            long startAt = startMillis + r * spacingMillis;
            while (System.currentTimeMillis() < startAt) {
                Thread.onSpinWait();
            }
            CommitResult res = committer.commit(PARTITION, r - 1, next);
            lines.add(r + " " + res.status() + " " + out);
        }
        return lines;
    }
}
