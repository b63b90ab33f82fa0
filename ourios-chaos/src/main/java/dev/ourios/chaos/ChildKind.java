package dev.ourios.chaos;

import java.util.Optional;

/**
 * How one iteration's child dies: SIGKILLed at a random moment (a compaction sweep or a {@code gc}), or halted at a
 * named protocol step by the store it runs on ({@link HaltingCli}; the labels and what each step has done are listed
 * in {@code dev.ourios.store.HaltingObjectStore}).
 */
enum ChildKind {
    SIGKILL_COMPACT("SIGKILL compact (random moment)", null),
    SIGKILL_GC("SIGKILL gc (random moment)", null),
    HALT_MID_REWRITE("halt at mid-rewrite", "mid-rewrite"),
    HALT_AFTER_OUTPUT_PUBLISHED("halt at after-output-published", "after-output-published"),
    HALT_AFTER_COMMIT("halt at after-commit", "after-commit"),
    HALT_MID_GC("halt at mid-gc", "mid-gc");

    private final String label;
    private final String crashPoint;

    ChildKind(String label, String crashPoint) {
        this.label = label;
        this.crashPoint = crashPoint;
    }

    String label() {
        return label;
    }

    Optional<String> crashPoint() {
        return Optional.ofNullable(crashPoint);
    }

    /** after-commit first: it leaves retired inputs behind, which the zero-grace mid-gc child after it deletes. */
    private static final ChildKind[] HALTS = {HALT_AFTER_COMMIT, HALT_MID_GC, HALT_MID_REWRITE,
        HALT_AFTER_OUTPUT_PUBLISHED};

    /**
     * The schedule: iterations 0, k, 2k, ... halt at the next protocol step in turn, so a short run already covers
     * each step; the others are random SIGKILLs, a quarter of them of a {@code gc}.
     */
    static ChildKind forIteration(int i, int haltEvery, java.util.Random random) {
        if (i % haltEvery == 0) {
            return HALTS[(i / haltEvery) % HALTS.length];
        }
        return random.nextInt(4) == 0 ? SIGKILL_GC : SIGKILL_COMPACT;
    }
}
