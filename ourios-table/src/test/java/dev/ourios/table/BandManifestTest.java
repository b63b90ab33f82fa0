package dev.ourios.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A partition's band of main files in its manifest (storage.md §3.1, §4.14): {@code main} and {@code commit.outputs}
 * round-trip with fixed bytes, their rules are checked, and the next manifest names the band exactly when a rewrite
 * of the whole partition wrote several files, keeping it while no commit retires any of it.
 */
class BandManifestTest {
    private static final PartitionKey P = PartitionKey.ofHour("acme", Instant.parse("2026-11-29T10:00:00Z"));
    private static final String DIR = P.dataPrefix();
    private static final Instant AT = Instant.parse("2026-11-29T11:17:03Z");
    private static final String A = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b.compacted.parquet";
    private static final String B = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2a.compacted.parquet";
    private static final String IN1 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a21.parquet";
    private static final String IN2 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a22.parquet";
    private static final String LATE1 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a23.parquet";
    private static final String LATE2 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a24.parquet";
    private static final String TAIL = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2c.compacted.parquet";
    private final ManifestCodec codec = new ManifestCodec();

    private static CommitRecord band(List<String> inputs, List<String> outputs) {
        return new CommitRecord(CommitKind.COMPACT, AT, inputs, 10, 0, 200, 150, "10:ab", null, outputs);
    }

    @Test
    void a_band_round_trips_with_main_and_outputs_in_key_order() throws Exception {
        String key = DIR + "manifest.00000000000000000001.json";
        // B sorts before A by name but holds the later keys' rows: both lists keep the key order.
        Manifest m = Manifest.of(1, List.of(B, A), List.of(new Retired(IN1, AT), new Retired(IN2, AT)),
                band(List.of(IN1, IN2), List.of(A, B)), List.of(A, B));
        byte[] json = codec.encode(key, m);
        String text = new String(json, StandardCharsets.UTF_8);
        assertTrue(text.contains("\"main\":[\"" + A + "\",\"" + B + "\"],\"commit\""), text);
        assertTrue(text.contains("\"outputs\":[\"" + A + "\",\"" + B + "\"],\"rows\""), text);
        assertTrue(!text.contains("\"output\":"), text);
        Manifest back = codec.decode(key, json);
        assertEquals(m, back);
        assertEquals(List.of(A, B), back.commitRecord().orElseThrow().complete().orElseThrow().outputs());
        assertArrayEquals(json, codec.encode(key, back));
    }

    @Test
    void band_rules_are_checked_and_name_the_problem() {
        String key = DIR + "manifest.00000000000000000007.json";
        String head = "{\"format\":1,\"generation\":7,\"files\":[\"" + A + "\",\"" + B + "\"],";
        String[][] cases = {
            {head + "\"main\":[\"" + A + "\"]}", "main names one file"},
            {head + "\"main\":[\"" + A + "\",\"" + TAIL + "\"]}", "is in main but not in files"},
            {head + "\"main\":[\"" + A + "\",\"" + A + "\"]}", "more than once in main"},
            {head + "\"commit\":{\"output\":\"" + A + "\",\"outputs\":[\"" + A + "\",\"" + B + "\"]}}",
                "both output and outputs"},
            {head + "\"commit\":{\"outputs\":[\"" + A + "\"]}}", "one output is commit.output"},
            {head + "\"commit\":{\"outputs\":[\"" + A + "\",\"" + A + "\"]}}", "more than once in commit.outputs"},
        };
        for (String[] c : cases) {
            ManifestException e = assertThrows(ManifestException.class,
                    () -> codec.decode(key, c[0].getBytes(StandardCharsets.UTF_8)), c[0]);
            assertTrue(e.getMessage().contains(c[1]) && e.getMessage().contains(key), e.getMessage());
        }
    }

    @Test
    void the_next_manifest_names_the_band_keeps_it_beside_a_tail_and_drops_it_once_retired() throws Exception {
        Manifest g1 = NextManifest.from(snapshot(List.of(IN1, IN2), null), band(List.of(IN1, IN2), List.of(A, B)));
        assertEquals(List.of(A, B), g1.main(), "a whole-partition rewrite into several files names its band");

        Manifest g2 = NextManifest.from(snapshot(List.of(A, B, LATE1, LATE2), g1),
                new CommitRecord(AT, List.of(LATE1, LATE2), TAIL, 5, 20, 15, "5:cd"));
        assertEquals(List.of(A, B), g2.main(), "a tail merge keeps the band");
        assertEquals(List.of(B, A, TAIL).stream().sorted().toList(), g2.files());

        Manifest g3 = NextManifest.from(snapshot(List.of(A, B, TAIL), g2),
                new CommitRecord(AT, List.of(A, B, TAIL), IN1.replace(".parquet", ".compacted.parquet"), 15, 170,
                        160, "15:ef"));
        assertEquals(List.of(), g3.main(), "one output of the whole partition is its one main file");

        Manifest expired = NextManifest.from(snapshot(List.of(A, B), g1),
                CommitRecord.expiry(AT, List.of(A, B), 10, 150, "retention 1d"));
        assertEquals(List.of(), expired.main(), "an expiry retires the band with the rest");
    }

    /** A snapshot at the generation of {@code manifest} (0 without) whose listing holds {@code names}. */
    private static PartitionSnapshot snapshot(List<String> names, Manifest manifest) throws Exception {
        List<ObjectInfo> listing = new ArrayList<>();
        names.forEach(n -> listing.add(new ObjectInfo(DIR + n, 100, AT)));
        if (manifest != null) {
            listing.add(new ObjectInfo(ManifestKeys.key(P, manifest.generation()), 10, AT));
        }
        return LiveSetResolver.resolve(P, listing, Optional.ofNullable(manifest));
    }
}
