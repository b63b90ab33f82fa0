package dev.ourios.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ourios.testkit.Fuzzer;
import dev.ourios.testkit.Mutator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded fuzzing of {@link ReferenceManifestCodec#decode}: random mutations of valid {@code manifest.json} objects.
 * Every case is a manifest whose values keep the rules (STORAGE.md §3.6), or a {@link ManifestException} naming the
 * object with a short message: never another exception, a hang or an out-of-memory error.
 *
 * <p>{@code -Dourios.fuzz.cases=N} runs N cases (default 5000); {@code -Dourios.fuzz.seed=S} replays a run.
 */
@Timeout(300)
class ReferenceManifestCodecFuzzTest {
    private static final String KEY = "data/tenant_id=acme/year=2026/month=11/day=29/hour=10/manifest.json";
    private static final String A = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a21.parquet";
    private static final String B = "0b6f3c6e-5a39-4d57-9a1e-0c4a3d2b1f00.parquet";
    private final ReferenceManifestCodec codec = new ReferenceManifestCodec();

    private static List<byte[]> corpus() {
        return List.of(("{\"generation\":7,\"files\":[\"" + A + "\",\"" + B + "\"]}").getBytes(StandardCharsets.UTF_8),
                "{\"generation\":0,\"files\":[]}".getBytes(StandardCharsets.UTF_8),
                ("{\"files\":[\"" + A + "\"],\"writer\":{\"v\":[1,2.5,null]},\"generation\":12}")
                        .getBytes(StandardCharsets.UTF_8));
    }

    /** What an accepted manifest must satisfy, or null when it does. */
    private String judge(byte[] input) throws ManifestException {
        ReferenceManifest m = codec.decode(KEY, input);
        if (m.generation() < 0 || m.generation() == Long.MAX_VALUE) {
            return "accepted generation " + m.generation();
        }
        if (new HashSet<>(m.files()).size() != m.files().size()) {
            return "accepted a duplicate name: " + m.files();
        }
        for (String f : m.files()) {
            if (ManifestValidator.nameProblem(f) != null) {
                return "accepted a bad name: " + f;
            }
        }
        return null;
    }

    @Test
    void mutated_reference_manifests_decode_within_the_rules_or_are_refused_by_name() throws Exception {
        for (byte[] v : corpus()) {
            assertEquals(null, judge(v), "a valid manifest is judged clean");
        }
        Fuzzer.Result r = new Fuzzer("reference-manifest-codec", new Mutator(corpus()), Duration.ofSeconds(10))
                .run(Fuzzer.seed(), Fuzzer.cases(5000), ManifestException.class, b -> {
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
