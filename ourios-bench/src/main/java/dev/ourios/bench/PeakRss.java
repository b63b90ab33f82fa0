package dev.ourios.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's peak resident set size (Linux {@code VmHWM}), reset before each run by writing {@code 5} to
 * {@code /proc/self/clear_refs}. It is the whole process: the JVM's heap as far as it has been touched (with a
 * large -Xmx, G1 keeps what earlier runs grew it to, so for our contenders it says little: their bound is the
 * memory suite's -Xmx), and DuckDB's native memory, which runs in this process. {@code -1} where Linux's files are
 * not there.
 */
final class PeakRss {
    private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");
    private static final Path STATUS = Path.of("/proc/self/status");

    private PeakRss() {
    }

    /** Sets the peak to the current resident set; false where that is not possible. */
    static boolean reset() {
        try {
            Files.writeString(CLEAR_REFS, "5");
            return true;
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** The peak resident set since the last reset, in MiB, or -1. */
    static long mib() {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | SecurityException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
