package dev.ourios.testkit;

import java.time.Duration;
import java.util.Base64;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A seeded fuzzing loop: mutants of valid inputs go to a target, each case on a worker thread with a deadline, and
 * every outcome is judged: a value, or the one exception type the target documents, with a message. Any other
 * exception, an error (an {@code OutOfMemoryError} included), a blank message or a case past its deadline fails
 * the run, naming the seed, the case and the input (base64) so it replays exactly.
 *
 * <p>{@code -Dourios.fuzz.seed=N} replays a run; {@code -Dourios.fuzz.cases=N} sets the case count (the default is
 * the caller's, chosen to run in seconds; an opt-in run passes a larger one).
 */
public final class Fuzzer {
    /** What a case runs: returns null, or a description of a broken invariant of the value it accepted. */
    @FunctionalInterface
    public interface Target {
        String apply(byte[] input) throws Exception;
    }

    /** The outcome counts of a run. */
    public record Result(long seed, int cases, int accepted, int refused) {
    }

    private final String name;
    private final Mutator mutator;
    private final Duration perCase;

    public Fuzzer(String name, Mutator mutator, Duration perCase) {
        this.name = name;
        this.mutator = mutator;
        this.perCase = perCase;
    }

    /** The seed: {@code -Dourios.fuzz.seed}, else a fresh one. */
    public static long seed() {
        return Long.getLong("ourios.fuzz.seed", System.nanoTime());
    }

    /** The case count: {@code -Dourios.fuzz.cases}, else {@code defaultCases}. */
    public static int cases(int defaultCases) {
        return Integer.getInteger("ourios.fuzz.cases", defaultCases);
    }

    /**
     * Runs {@code cases} mutants through {@code target}. The target returns normally when the input was accepted;
     * a thrown {@code refusal} (with a non-blank message) counts as a clean refusal; anything else fails.
     *
     * @param target returns null, or a description of a broken invariant of an accepted value
     */
    public Result run(long seed, int cases, Class<? extends Throwable> refusal, Target target)
            throws InterruptedException {
        System.out.println(name + ": seed " + seed + " (replay with -Dourios.fuzz.seed=" + seed + "), " + cases
                + " cases");
        SplittableRandom master = new SplittableRandom(seed);
        int accepted = 0;
        int refused = 0;
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fuzz-" + name);
            t.setDaemon(true);
            return t;
        });
        try {
            for (int i = 0; i < cases; i++) {
                byte[] input = mutator.mutant(master.split());
                Future<String> f = worker.submit(() -> target.apply(input));
                String broken;
                try {
                    broken = f.get(perCase.toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    f.cancel(true);
                    throw failure(seed, i, input, "no answer within " + perCase + " (a hang)", null);
                } catch (ExecutionException e) {
                    Throwable t = e.getCause();
                    if (refusal.isInstance(t) && t.getMessage() != null && !t.getMessage().isBlank()) {
                        refused++;
                        continue;
                    }
                    throw failure(seed, i, input, "threw " + t.getClass().getName() + " (expected "
                            + refusal.getSimpleName() + " with a message): " + t.getMessage(), t);
                }
                if (broken != null) {
                    throw failure(seed, i, input, "accepted, but " + broken, null);
                }
                accepted++;
            }
        } finally {
            worker.shutdownNow();
        }
        Result result = new Result(seed, cases, accepted, refused);
        System.out.println(name + ": " + accepted + " accepted, " + refused + " refused cleanly, 0 failures");
        return result;
    }

    private AssertionError failure(long seed, int i, byte[] input, String what, Throwable cause) {
        String shown = Base64.getEncoder().encodeToString(input.length > 4096
                ? java.util.Arrays.copyOf(input, 4096) : input);
        return new AssertionError(name + ": seed " + seed + " (replay with -Dourios.fuzz.seed=" + seed + "), case "
                + i + ": " + what + "; input (base64" + (input.length > 4096 ? ", first 4096 bytes" : "") + "): "
                + shown, cause);
    }
}
