package dev.ourios.compaction;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;

/**
 * TEST-ONLY fault injection: named steps of the compaction protocol at which a crash test makes the process die as
 * if it had been SIGKILLed. Production never arms it: every {@link #reach()} is a no-op unless the JVM was started
 * with {@code -Dourios.test.crashAt=<label>}, and then only the one named point halts the JVM at once
 * ({@code Runtime.halt(137)}: no shutdown hooks, no finally blocks, no flushes, exactly what a kill leaves behind).
 * Random-moment kills cannot hit a step reliably; these points make each step's crash a deterministic test
 * (RFC0009.4, {@code Rfc0009CrashTest}).
 */
public enum CrashPoint {
    /** In the rewrite, after half the sorted rows went to the output stream (its temp file exists). */
    MID_REWRITE("mid-rewrite"),
    /** The output is published (invisible, unnamed) and its checksums matched; the manifest is not written. */
    AFTER_OUTPUT_PUBLISHED("after-output-published"),
    /** The manifest of the new generation is committed; its audit event is not written. */
    AFTER_COMMIT("after-commit"),
    /** GC deleted its first object. */
    MID_GC("mid-gc");

    /** The JVM system property that arms one point. */
    public static final String PROPERTY = "ourios.test.crashAt";
    /** The exit status of a halted process: what a shell reports for SIGKILL (128 + 9). */
    public static final int EXIT_STATUS = 137;

    private final String label;

    CrashPoint(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Halts the JVM if this point is the armed one; otherwise does nothing. */
    public void reach() {
        if (Armed.POINT.orElse(null) == this) {
            Runtime.getRuntime().halt(EXIT_STATUS);
        }
    }

    /** True if this point is armed (to build a crash-wrapping object only in a test process). */
    public boolean isArmed() {
        return Armed.POINT.orElse(null) == this;
    }

    /**
     * The armed point, if any.
     *
     * @throws IllegalArgumentException if the property names no point (a typo must not silently disarm a test)
     */
    public static Optional<CrashPoint> armed() {
        return Armed.POINT;
    }

    static CrashPoint parse(String label) {
        for (CrashPoint p : values()) {
            if (p.label.equals(label)) {
                return p;
            }
        }
        throw new IllegalArgumentException("-D" + PROPERTY + "=" + label + " names no crash point; known: "
                + Arrays.stream(values()).map(CrashPoint::label).collect(Collectors.joining(", ")));
    }

    /** Read once, on first use: the property is fixed for the life of a test process. */
    private static final class Armed {
        static final Optional<CrashPoint> POINT = read();

        private static Optional<CrashPoint> read() {
            String v = System.getProperty(PROPERTY);
            if (v == null || v.isEmpty()) {
                return Optional.empty();
            }
            CrashPoint p = parse(v);
            LoggerFactory.getLogger(CrashPoint.class).warn("TEST-ONLY crash point armed: this process halts at {}",
                    p.label);
            return Optional.of(p);
        }
    }
}
