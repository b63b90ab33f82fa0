package dev.ourios.table;

import static dev.ourios.table.TestPartitions.names;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.ObjectInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition whose current manifest carries a commit record without some fields (written by another tool or by
 * hand, STORAGE.md §3) is an ordinary partition: its live set resolves, its rows read, GC collects it and the next
 * compaction commits on top of it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PartialCommitRecordTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant HOUR = Instant.parse("2026-11-29T10:00:00Z");
    private static final List<String> COMMIT_FIELDS =
            List.of("at", "inputs", "output", "rows", "bytes_in", "bytes_out", "checksum");

    @TempDir
    Path root;

    /** Real Parquet files: two ingest files merged into a compacted one, and a late ingest file beside it. */
    private record Compacted(PartitionKey p, String in1, String in2, String out, String late, List<LogRecord> rows) {
    }

    private static Compacted compacted(TestPartitions t) throws IOException {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("acme"), HOUR, 1, 3, 120, 7));
        PartitionKey p = gen.partition("acme", 0);
        List<LogRecord> merged = new ArrayList<>(gen.file("acme", 0, 0));
        merged.addAll(gen.file("acme", 0, 1));
        String in1 = write(t, p, t.ingestName(), gen.file("acme", 0, 0), WriterOptions.ingest());
        String in2 = write(t, p, t.ingestName(), gen.file("acme", 0, 1), WriterOptions.ingest());
        String out = write(t, p, t.compactedName(), merged, WriterOptions.compacted(1 << 20));
        List<LogRecord> late = gen.file("acme", 0, 2);
        String lateName = write(t, p, t.ingestName(), late, WriterOptions.ingest());
        List<LogRecord> visible = new ArrayList<>(merged);
        visible.addAll(late);
        return new Compacted(p, in1, in2, out, lateName, visible);
    }

    private static String write(TestPartitions t, PartitionKey p, String name, List<LogRecord> rows,
            WriterOptions opts) throws IOException {
        try (LogFileWriter w = new LogFileWriter(t.store.create(p.dataPrefix() + name), opts)) {
            for (LogRecord r : rows) {
                w.write(r);
            }
            w.commit();
        }
        return name;
    }

    /** Generation {@code gen} as this build would write it, as a JSON tree a test can take fields out of. */
    private static ObjectNode manifestTree(TestPartitions t, Compacted c, long gen, Instant at) throws IOException {
        Manifest m = Manifest.of(gen, List.of(c.out()), List.of(new Retired(c.in1(), at), new Retired(c.in2(), at)),
                new CommitRecord(at, List.of(c.in1(), c.in2()), c.out(), 240, 1000, 900, "240:00ff"));
        String key = ManifestKeys.key(c.p(), gen);
        return (ObjectNode) JSON.readTree(t.codec.encode(key, m));
    }

    private static String putTree(TestPartitions t, PartitionKey p, long gen, ObjectNode tree, Instant modified)
            throws IOException {
        return t.putManifestBytes(p, gen, JSON.writeValueAsString(tree), modified);
    }

    /** Every row of the live set, read the way a query reads it (row-vs-path checked). */
    private static Map<LogRecord, Integer> readLive(TestPartitions t, PartitionSnapshot s) throws IOException {
        Map<LogRecord, Integer> out = new HashMap<>();
        for (ObjectInfo f : s.live()) {
            try (LogFileReader r = LogFileReader.open(t.store, f.key(), ReadOptions.partition(s.partition()))) {
                LogRecord rec;
                while ((rec = r.read()) != null) {
                    out.merge(rec, 1, Integer::sum);
                }
            }
        }
        return out;
    }

    private static Map<LogRecord, Integer> multiset(List<LogRecord> rows) {
        Map<LogRecord, Integer> out = new HashMap<>();
        rows.forEach(r -> out.merge(r, 1, Integer::sum));
        return out;
    }

    @Test
    void aCommitWithoutAnyOneFieldOrWithoutCommitResolvesTheSameLiveSetAndRows() throws Exception {
        TestPartitions t = new TestPartitions(root, 5);
        Compacted c = compacted(t);
        List<String> variants = new ArrayList<>(COMMIT_FIELDS);
        variants.add("commit");
        for (String missing : variants) {
            ObjectNode tree = manifestTree(t, c, 1, HOUR.plus(Duration.ofHours(2)));
            if (missing.equals("commit")) {
                tree.remove("commit");
            } else {
                ((ObjectNode) tree.get("commit")).remove(missing);
            }
            putTree(t, c.p(), 1, tree, TestPartitions.NOW);

            PartitionSnapshot s = t.reader.snapshot(c.p());
            assertEquals(1, s.generation(), missing);
            assertEquals(List.of(c.out(), c.late()).stream().sorted().toList(), names(s.live()), missing);
            assertEquals(List.of(c.in1(), c.in2()).stream().sorted().toList(), names(s.retiredPresent()), missing);
            assertEquals(List.of(), s.orphans(), missing);
            if (missing.equals("checksum")) {
                assertEquals(Optional.empty(), s.manifest().orElseThrow().commit().checksum());
            }
            Map<LogRecord, Integer> read = readLive(t, s);
            assertEquals(c.rows().size(), read.values().stream().mapToInt(Integer::intValue).sum(), missing);
            assertEquals(multiset(c.rows()), read, missing + ": every visible row exactly once");
        }
    }

    @Test
    void gcCollectsAndTheNextCompactionCommitsOnTopOfACommitWithoutAtOrChecksum() throws Exception {
        TestPartitions t = new TestPartitions(root, 6);
        Duration grace = GcOptions.DEFAULT_GRACE;
        Instant old = TestPartitions.NOW.minus(Duration.ofHours(1));
        PartitionKey p = TestPartitions.P;
        String in1 = t.ingestName();
        String in2 = t.ingestName();
        String out = t.compactedName();
        String late = t.ingestName();
        for (String f : List.of(in1, in2, out, late)) {
            t.put(p, f, old);
        }
        t.putManifest(p, Manifest.of(1, List.of(in1, in2), List.of(), null), old.minusSeconds(60));
        // Generation 2, by hand: its commit record lacks "at" (GC then dates the supersession of generation 1 by
        // this object's creation) and "checksum".
        t.putManifestBytes(p, 2, "{\"format\":1,\"generation\":2,\"files\":[\"" + out + "\"],\"retired\":["
                + "{\"file\":\"" + in1 + "\",\"at\":\"" + old + "\"},{\"file\":\"" + in2 + "\",\"at\":\"" + old
                + "\"}],\"commit\":{\"inputs\":[\"" + in1 + "\",\"" + in2 + "\"],\"output\":\"" + out
                + "\",\"rows\":2}}", old);

        GarbageCollector gc = new GarbageCollector(t.store, new TableLayout(t.store), t.reader,
                new GcOptions(grace, false), Clock.fixed(TestPartitions.NOW, ZoneOffset.UTC));
        GcReport report = gc.run(PartitionFilter.all());
        assertEquals(List.of(), report.errors());
        assertEquals(List.of(p.dataPrefix() + in1, p.dataPrefix() + in2, ManifestKeys.key(p, 1)).stream().sorted()
                .toList(), report.deletedKeys().stream().sorted().toList());

        PartitionSnapshot s = t.reader.snapshot(p);
        assertEquals(List.of(out, late).stream().sorted().toList(), names(s.live()));
        String out2 = t.compactedName();
        t.put(p, out2, TestPartitions.NOW);
        Manifest next = NextManifest.from(s, new CommitRecord(TestPartitions.NOW, List.of(out, late), out2, 3, 3, 3,
                "3:00aa"));
        ManifestCommitter committer = ManifestCommitter.forGcGrace(t.store, t.codec,
                Clock.fixed(TestPartitions.NOW, ZoneOffset.UTC), grace);
        assertTrue(committer.commit(p, 2, next).committed());
        Manifest three = t.reader.readManifest(p, 3);
        assertEquals(List.of(out2), three.files());
        assertTrue(three.commit().complete().isPresent(), "what this build commits is complete: " + three);
    }
}
