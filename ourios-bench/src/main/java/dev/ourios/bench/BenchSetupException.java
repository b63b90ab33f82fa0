package dev.ourios.bench;

/**
 * A suite cannot run as asked: one of its own options is wrong, or something it needs (a built jar, a launcher) is
 * missing. {@link BenchMain} prints the message as one line and exits 2, as for a bad option.
 */
final class BenchSetupException extends Exception {
    private static final long serialVersionUID = 1L;

    BenchSetupException(String message) {
        super(message);
    }
}
