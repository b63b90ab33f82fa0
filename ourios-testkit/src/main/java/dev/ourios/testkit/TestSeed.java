package dev.ourios.testkit;

/**
 * The seed of a seeded test: {@code -Dourios.test.seed=N} replays a run, otherwise a fresh one. Printed before the
 * test uses it, so a failing run's seed is in its output.
 */
public final class TestSeed {
    /** The system property that fixes the seed. */
    public static final String PROPERTY = "ourios.test.seed";

    private TestSeed() {
    }

    /** The seed for {@code test}, printed with the option that replays it. */
    public static long announce(Class<?> test) {
        long seed = Long.getLong(PROPERTY, System.nanoTime());
        System.out.println(test.getSimpleName() + " seed " + seed + " (replay with -D" + PROPERTY + "=" + seed + ")");
        return seed;
    }
}
