package dev.ourios.table;

import static dev.ourios.table.TestPartitions.NOW;
import static dev.ourios.table.TestPartitions.P;
import static dev.ourios.table.TestPartitions.names;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The visibility table of STORAGE.md §3, against a real local store. */
class LiveSetTest {
    @TempDir
    Path root;
    TestPartitions t;
    String in1;
    String in2;
    String out;

    @BeforeEach
    void setUp() {
        t = new TestPartitions(root, 42);
        in1 = t.ingestName();
        in2 = t.ingestName();
        out = t.compactedName();
    }

    private Manifest compacted(long gen) {
        Instant at = NOW.minusSeconds(60);
        return Manifest.of(gen, List.of(out), List.of(new Retired(in1, at), new Retired(in2, at)),
                new CommitRecord(at, List.of(in1, in2), out, 10, 20, 15, "c"));
    }

    @Test
    void emptyPartitionIsGenerationZero() throws Exception {
        PartitionSnapshot s = t.reader.snapshot(P);
        assertEquals(0, s.generation());
        assertEquals(Optional.empty(), s.manifest());
        assertEquals(List.of(), s.live());
    }

    @Test
    void withoutManifestEveryIngestFileIsLiveAndNothingElse() throws Exception {
        t.put(in2);
        t.put(in1);
        t.put(out);
        t.put("." + in1 + ".tmp-abcdef");
        t.put("notes.txt");
        PartitionSnapshot s = t.reader.snapshot(P);
        assertEquals(0, s.generation());
        assertEquals(List.of(in1, in2).stream().sorted().toList(), names(s.live()));
        assertEquals(List.of(out), names(s.orphans()));
        assertEquals(List.of("." + in1 + ".tmp-abcdef"), names(s.temps()));
        assertEquals(List.of("notes.txt"), names(s.ignored()));
        assertEquals(names(s.live()), names(s.unmanifestedIngest()));
    }

    @Test
    void manifestNamingTheCompactedOutputHidesRetiredInputs() throws Exception {
        t.put(in1);
        t.put(in2);
        t.put(out);
        t.putManifest(P, compacted(1), NOW);
        PartitionSnapshot s = t.reader.snapshot(P);
        assertEquals(1, s.generation());
        assertEquals(List.of(out), names(s.live()));
        assertEquals(List.of(in1, in2), names(s.retiredPresent()));
        assertEquals(List.of(), s.orphans());
        assertEquals(List.of(), s.unmanifestedIngest());
    }

    @Test
    void lateIngestFileBesideAManifestIsVisible() throws Exception {
        t.put(out);
        t.putManifest(P, compacted(1), NOW);
        String late = t.ingestName();
        t.put(late);
        PartitionSnapshot s = t.reader.snapshot(P);
        assertEquals(List.of(out, late).stream().sorted().toList(), names(s.live()));
        assertEquals(List.of(late), names(s.unmanifestedIngest()));
    }

    @Test
    void unreferencedCompactedFileIsInvisible() throws Exception {
        t.put(out);
        t.putManifest(P, compacted(1), NOW);
        String lost = t.compactedName();
        t.put(lost);
        PartitionSnapshot s = t.reader.snapshot(P);
        assertEquals(List.of(out), names(s.live()));
        assertEquals(List.of(lost), names(s.orphans()));
    }

    @Test
    void highestGenerationWinsAndOlderManifestsAreSuperseded() throws Exception {
        String out2 = t.compactedName();
        t.put(out);
        t.put(out2);
        t.putManifest(P, compacted(3), NOW);
        Manifest m5 = Manifest.of(5, List.of(out2), List.of(new Retired(out, NOW)), null);
        t.putManifest(P, m5, NOW);
        PartitionSnapshot s = t.reader.snapshot(P);
        assertEquals(5, s.generation());
        assertEquals(List.of(out2), names(s.live()));
        assertEquals(List.of(out), names(s.retiredPresent()));
        assertEquals(List.of("manifest.00000000000000000003.json"), names(s.supersededManifests()));
        assertEquals("manifest.00000000000000000005.json", s.currentManifest().orElseThrow().name());
    }

    @Test
    void manifestNamingAMissingFileIsAClearError() throws Exception {
        t.putManifest(P, compacted(1), NOW);
        MissingFileException e = assertThrows(MissingFileException.class, () -> t.reader.snapshot(P));
        assertEquals(out, e.missingFile());
        assertTrue(e.getMessage().contains(out) && e.getMessage().contains("manifest.00000000000000000001.json"),
                e.getMessage());
    }

    @Test
    void invalidCurrentManifestIsAClearErrorEvenIfOlderOnesAreFine() throws Exception {
        t.put(out);
        t.putManifest(P, compacted(1), NOW);
        String[] bad = {
            "{not json",
            "{\"format\":1,\"generation\":2,\"files\":[\"" + out + "\",\"" + out + "\"]}",
            "{\"format\":1,\"generation\":2,\"files\":[\"../x.parquet\"]}",
            "{\"format\":1,\"generation\":3,\"files\":[\"" + out + "\"]}",
        };
        for (String json : bad) {
            String key = t.putManifestBytes(P, 2, json, NOW);
            ManifestException e = assertThrows(ManifestException.class, () -> t.reader.snapshot(P), json);
            assertTrue(e.getMessage().contains(key), e.getMessage());
        }
    }
}
