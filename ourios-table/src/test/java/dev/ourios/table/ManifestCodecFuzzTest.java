package dev.ourios.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ourios.testkit.Fuzzer;
import dev.ourios.testkit.Mutator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded fuzzing of {@link ManifestCodec#decode}: random mutations (bit flips, truncations, insertions, splices,
 * member deletions, extreme values) of valid manifests. Every case is a manifest that passes validation and
 * re-encodes to bytes that decode to the same manifest, or a {@link ManifestException} naming the manifest with a
 * message: never another exception, a hang or an out-of-memory error, so a corrupt manifest is reported by name
 * and never crashes a reader, the compactor or GC.
 *
 * <p>{@code -Dourios.fuzz.cases=N} runs N cases (default 5000); {@code -Dourios.fuzz.seed=S} replays a run.
 */
@Timeout(300)
class ManifestCodecFuzzTest {
    private static final String KEY = "data/tenant_id=acme/year=2026/month=11/day=29/hour=10/"
            + "manifest.00000000000000000007.json";
    private static final String OUT = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b.compacted.parquet";
    private static final String IN1 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a21.parquet";
    private static final String IN2 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a22.parquet";
    private final ManifestCodec codec = new ManifestCodec();

    private List<byte[]> corpus() throws ManifestException {
        Instant at = Instant.parse("2026-11-29T11:17:03Z");
        List<byte[]> out = new ArrayList<>();
        out.add(codec.encode(KEY, Manifest.of(7, List.of(OUT), List.of(new Retired(IN1, at), new Retired(IN2, at)),
                new CommitRecord(at, List.of(IN2, IN1), OUT, 123456, 2000, 1500, "ab12"))));
        out.add(codec.encode(KEY, Manifest.of(7, List.of(OUT, IN1), List.of(), null)));
        out.add(("{\"format\":1,\"generation\":7,\"files\":[\"" + OUT + "\"],\"retired\":null,"
                + "\"commit\":{\"at\":\"2026-11-29T11:17:03.5Z\",\"output\":\"" + OUT + "\"},"
                + "\"written_by\":{\"tool\":\"hand\",\"n\":[1,2.5,null]}}").getBytes(StandardCharsets.UTF_8));
        return out;
    }

    /** An accepted manifest must round-trip: what this build writes, it reads back the same. */
    private String judge(byte[] input) throws ManifestException {
        Manifest m = codec.decode(KEY, input);
        byte[] again;
        try {
            again = codec.encode(KEY, m);
        } catch (ManifestException e) {
            // Only an incomplete commit record (another tool's) is readable but not writable by this build.
            return m.commit() != null && m.commit().complete().isEmpty() ? null
                    : "decoded, but re-encoding failed: " + e.getMessage();
        }
        Manifest back = codec.decode(KEY, again);
        if (!back.equals(m)) {
            return "re-encoded manifest decodes differently: " + m + " vs " + back;
        }
        if (!Arrays.equals(again, codec.encode(KEY, back))) {
            return "encoding is not deterministic";
        }
        return null;
    }

    @Test
    void mutated_manifests_decode_and_round_trip_or_are_refused_by_name() throws Exception {
        List<byte[]> valid = corpus();
        for (byte[] v : valid) {
            assertEquals(null, judge(v), "a valid manifest is judged clean");
        }
        Fuzzer.Result r = new Fuzzer("manifest-codec", new Mutator(valid), Duration.ofSeconds(10)).run(Fuzzer.seed(),
                Fuzzer.cases(5000), ManifestException.class, b -> {
                    try {
                        return judge(b);
                    } catch (ManifestException e) {
                        if (!KEY.equals(e.manifestKey())) {
                            throw new AssertionError("the refusal names " + e.manifestKey() + ", not " + KEY, e);
                        }
                        throw e;
                    }
                });
        assertEquals(r.cases(), r.accepted() + r.refused());
    }
}
