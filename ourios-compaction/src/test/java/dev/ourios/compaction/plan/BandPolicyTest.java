package dev.ourios.compaction.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The policy beside a band of main files (storage.md §4.1, §4.14): a band at rest is not a candidate, late files
 * merge as its tail without it, a compacted tail already beyond the bound is left alone, a tail beyond the ratio
 * rewrites the whole partition, and a band whose names are not all live is not taken as the main files.
 */
class BandPolicyTest {
    private static final Instant HOUR = Instant.parse("2026-11-01T10:00:00Z");
    private static final Instant NOW = HOUR.plusSeconds(86_400);
    private static final PartitionKey P = PartitionKey.ofHour("acme", HOUR);
    private static final long MIB = 1L << 20;
    private static final String A = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2a.compacted.parquet";
    private static final String B = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b.compacted.parquet";
    private static final String C = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2c.compacted.parquet";
    private static final String T1 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a31.compacted.parquet";
    private static final String T2 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a32.compacted.parquet";
    private static final String L1 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a41.parquet";
    private static final String L2 = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a42.parquet";

    private final CompactionPolicy policy = new CompactionPolicy(
            CompactionOptions.defaults(Path.of("scratch")).withMaxFileBytes(8 * MIB));

    private static ObjectInfo file(String name, long bytes) {
        return new ObjectInfo(P.dataPrefix() + name, bytes, HOUR);
    }

    @Test
    void a_band_at_rest_is_not_a_candidate_though_its_files_are_small() {
        PlanDecision d = policy.decide(P, 1, List.of(file(A, 7 * MIB), file(B, 7 * MIB), file(C, MIB)),
                List.of(A, B, C), NOW);
        assertFalse(d.isCandidate(), d.toString());
    }

    @Test
    void late_files_merge_as_the_bands_tail_alone() {
        PlanDecision d = policy.decide(P, 2, List.of(file(A, 7 * MIB), file(B, 7 * MIB), file(L1, MIB),
                file(L2, MIB)), List.of(A, B), NOW);
        assertTrue(d.isCandidate(), d.toString());
        assertEquals(List.of(L1, L2), d.plan().orElseThrow().inputNames(), "the tail alone is merged");
    }

    @Test
    void a_compacted_tail_beyond_the_bound_is_left_as_it_is() {
        PlanDecision d = policy.decide(P, 3, List.of(file(A, 7 * MIB), file(B, 7 * MIB), file(C, 7 * MIB),
                file(T1, 5 * MIB), file(T2, 5 * MIB)), List.of(A, B, C), NOW);
        assertFalse(d.isCandidate(), "merged, the tail would be a band again: " + d);
    }

    @Test
    void a_tail_beyond_the_ratio_rewrites_the_whole_partition() {
        PlanDecision d = policy.decide(P, 3, List.of(file(A, 4 * MIB), file(B, 4 * MIB), file(L1, 3 * MIB),
                file(L2, 3 * MIB)), List.of(A, B), NOW);
        assertTrue(d.isCandidate(), d.toString());
        assertEquals(List.of(A, B, L1, L2), d.plan().orElseThrow().inputNames());
        assertEquals(8 * MIB, d.plan().get().maxFileBytes());
        assertTrue(d.plan().get().rowGroupBytes() <= (8 * MIB) / 16, "a band's files hold several row groups");
    }

    @Test
    void a_band_not_wholly_live_is_not_the_main_files() {
        // A alone is live: the band named in main is broken, so the largest compacted file is the main file and the
        // two late files are its tail.
        PlanDecision d = policy.decide(P, 3, List.of(file(A, 7 * MIB), file(L1, MIB), file(L2, MIB)),
                List.of(A, B), NOW);
        assertTrue(d.isCandidate(), d.toString());
        assertEquals(List.of(L1, L2), d.plan().orElseThrow().inputNames());
    }
}
