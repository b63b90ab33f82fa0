package dev.ourios.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Page faults, for reading memory-hungry contenders' times: on a VM a first touch of a page can cost microseconds
 * (the host backs it), so a contender that allocates and frees gigabytes per run (DuckDB's sort) slows with the
 * machine's fault cost while one that reuses its heap does not. Linux only; -1 elsewhere.
 */
final class PageFaults {
    private static final Path STAT = Path.of("/proc/self/stat");

    private PageFaults() {
    }

    /** The process's minor page faults so far (field 10 of {@code /proc/self/stat}), or -1. */
    static long minor() {
        try {
            String stat = Files.readString(STAT);
            // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(rest[10 - 3]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Microseconds per 4 KiB page to first-touch {@code mib} MiB of fresh memory (a direct buffer, which the JVM
     * zeroes page by page), or -1 when faults are not counted here.
     */
    static double firstTouchMicrosPerPage(int mib) {
        long f0 = minor();
        long t0 = System.nanoTime();
        ByteBuffer b = ByteBuffer.allocateDirect(mib << 20);
        long nanos = System.nanoTime() - t0;
        long faults = minor() - f0;
        b.put(0, (byte) 1); // keeps the buffer alive until here
        return f0 < 0 || faults <= 0 ? -1 : nanos / 1e3 / ((long) mib << 20 >> 12);
    }
}
