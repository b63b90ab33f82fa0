package dev.ourios.compaction;

/**
 * The one rule for what a failure in one partition or audit day may do: become that partition's (day's) result.
 * Every catch that stands between one partition's work and the rest of a sweep or deletion catches
 * {@link Throwable} and passes it through {@link #contain}: any {@code Exception}, and any {@code Error} that leaves
 * the JVM usable (a {@code LinkageError} such as a codec class missing from the classpath, a
 * {@code StackOverflowError} from a deeply nested input, an {@code AssertionError}), is reported and the sweep goes
 * on; only a {@link VirtualMachineError} (out of memory, an internal error of the JVM) is rethrown, since nothing
 * after it can be trusted. A {@link StackOverflowError} is a virtual-machine error by class but not by effect: it is
 * one thread's stack, unwound by the time it is caught, so it is contained like any other.
 */
public final class Containment {
    private Containment() {
    }

    /**
     * Returns {@code t} for the caller to report, after restoring the interrupt flag it may carry.
     *
     * @throws VirtualMachineError {@code t} itself, when it is {@linkplain #isFatal fatal}
     */
    public static Throwable contain(Throwable t) {
        if (isFatal(t)) {
            throw (VirtualMachineError) t;
        }
        if (t instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return t;
    }

    /** True for an error that leaves the JVM unusable: a {@link VirtualMachineError} but a stack overflow. */
    public static boolean isFatal(Throwable t) {
        return t instanceof VirtualMachineError && !(t instanceof StackOverflowError);
    }

    /**
     * What a result line says of {@code t}: an exception's own message (null when it has none, as callers have
     * always handled it); for an error, which rarely says what it is in its message (a missing class names only the
     * class), its simple class name, then the message when there is one.
     */
    public static String describe(Throwable t) {
        if (t instanceof Exception) {
            return t.getMessage();
        }
        String msg = t.getMessage();
        return msg == null || msg.isBlank() ? t.getClass().getSimpleName()
                : t.getClass().getSimpleName() + ": " + msg;
    }

    /** {@link #describe}, with the class's simple name in place of a missing message. */
    public static String describeOrName(Throwable t) {
        String msg = describe(t);
        return msg == null ? t.getClass().getSimpleName() : msg;
    }
}
