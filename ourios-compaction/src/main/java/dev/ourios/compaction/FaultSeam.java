package dev.ourios.compaction;

import dev.ourios.core.LogRecord;
import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;

/**
 * The compaction's one fault-injection seam, for crash and verification tests only. Production never arms it:
 * {@link #NONE} injects nothing, and the only way in from outside this package is a JVM system property no product
 * launcher or configuration sets.
 *
 * <p><b>Crash points.</b> Random-moment kills cannot hit a protocol step reliably, so a test process can be made to
 * die at one named step as if it had been SIGKILLed: {@link Runtime#halt} with {@link #HALT_STATUS} (no shutdown
 * hooks, no finally blocks, no flushes: exactly what a kill leaves behind). A process is armed by starting its JVM
 * with {@code -D}{@value #CRASH_PROPERTY}{@code =<label>}; the public {@link CompactionWiring} reads the property once
 * per sweep runner it builds and hands the seam to the steps that reach each point:
 * <ul>
 *   <li>{@code mid-rewrite}: half the sorted rows went to the output stream (its temp file exists);</li>
 *   <li>{@code after-output-published}: the output is published (invisible, unnamed) and its checksums matched;
 *       the manifest is not written;</li>
 *   <li>{@code after-commit}: the new generation's manifest is committed; its audit event is not written;</li>
 *   <li>{@code mid-gc}: GC deleted its first object.</li>
 * </ul>
 * The chaos harness arms them in real {@code ourios compact} processes; the crash tests arm them in a child JVM. A
 * label that names no point fails the wiring, so a typo cannot silently disarm a test.
 *
 * <p><b>Row faults.</b> A test in this package can hand a sweep a {@link RowFault} that drops, repeats or alters
 * rows between the sorter and the output writer, to prove the checksum comparison refuses such a commit. No
 * property arms it.
 */
final class FaultSeam {
    /** The JVM system property that arms one crash point. */
    static final String CRASH_PROPERTY = "ourios.test.crashAt";
    /** The exit status of a halted process: what a shell reports for SIGKILL (128 + 9). */
    static final int HALT_STATUS = 137;
    /** Injects nothing: what every product path runs with. */
    static final FaultSeam NONE = new FaultSeam(null, null);

    /** A named step of the compaction protocol a test process can die at. */
    enum CrashPoint {
        MID_REWRITE("mid-rewrite"),
        AFTER_OUTPUT_PUBLISHED("after-output-published"),
        AFTER_COMMIT("after-commit"),
        MID_GC("mid-gc");

        private final String label;

        CrashPoint(String label) {
            this.label = label;
        }

        /** What the crash property names this point by. */
        String label() {
            return label;
        }
    }

    /** Replaces sorted output rows before they are checksummed and written. */
    @FunctionalInterface
    interface RowFault {
        /** The rows to write in place of row number {@code ordinal} of the sorted output. */
        List<LogRecord> apply(long ordinal, LogRecord r);
    }

    private final CrashPoint crashAt;
    private final RowFault rowFault;

    private FaultSeam(CrashPoint crashAt, RowFault rowFault) {
        this.crashAt = crashAt;
        this.rowFault = rowFault;
    }

    /** What the crash property arms in this JVM (usually nothing). */
    static FaultSeam fromSystemProperty() {
        FaultSeam seam = forLabel(System.getProperty(CRASH_PROPERTY));
        if (seam.crashAt != null) {
            LoggerFactory.getLogger(FaultSeam.class).warn("TEST-ONLY crash point armed: this process halts at {}",
                    seam.crashAt.label);
        }
        return seam;
    }

    /**
     * The seam that halts at the point {@code label} names; {@link #NONE} for null or empty.
     *
     * @throws IllegalArgumentException if the label names no point
     */
    static FaultSeam forLabel(String label) {
        if (label == null || label.isEmpty()) {
            return NONE;
        }
        for (CrashPoint p : CrashPoint.values()) {
            if (p.label.equals(label)) {
                return new FaultSeam(p, null);
            }
        }
        throw new IllegalArgumentException("-D" + CRASH_PROPERTY + "=" + label + " names no crash point; known: "
                + Arrays.stream(CrashPoint.values()).map(CrashPoint::label).collect(Collectors.joining(", ")));
    }

    /** The seam that passes every sorted output row through {@code fault}. */
    static FaultSeam altering(RowFault fault) {
        return new FaultSeam(null, fault);
    }

    /** Halts the JVM if {@code point} is the armed one; otherwise does nothing. */
    void reach(CrashPoint point) {
        if (point == crashAt) {
            Runtime.getRuntime().halt(HALT_STATUS);
        }
    }

    /** The fault the output rows pass through, if any: none means rows go to the writer as sorted. */
    Optional<RowFault> rowFault() {
        return Optional.ofNullable(rowFault);
    }

    /**
     * The store GC deletes through: {@code store} itself unless mid-gc is armed. GC lives in ourios-table and knows
     * nothing of crash points; wrapping its store here keeps the hook out of it.
     */
    ObjectStore gcStore(ObjectStore store) {
        return crashAt == CrashPoint.MID_GC ? new HaltAfterDelete(store, this) : store;
    }

    /** Reaches mid-gc after each delete, so the process dies right after GC's first one. */
    private static final class HaltAfterDelete extends ForwardingObjectStore {
        private final FaultSeam seam;

        HaltAfterDelete(ObjectStore delegate, FaultSeam seam) {
            super(delegate);
            this.seam = seam;
        }

        @Override
        public void delete(String key) throws IOException {
            delegate.delete(key);
            seam.reach(CrashPoint.MID_GC);
        }
    }
}
