package dev.ourios.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Where a figure was measured: every report carries it next to the numbers. */
public record Machine(int cores, String cpu, long memoryBytes, String javaVersion, String vm, long maxHeapBytes,
        String os, String date) {

    public static Machine current() {
        Runtime rt = Runtime.getRuntime();
        return new Machine(rt.availableProcessors(), cpuModel(), totalMemory(), System.getProperty("java.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"), rt.maxMemory(),
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    }

    public String describe() {
        return String.format("%d vCPU (%s), %.1f GiB RAM, Java %s (%s), max heap %d MiB, %s, %s", cores, cpu,
                memoryBytes / (double) (1L << 30), javaVersion, vm, maxHeapBytes >> 20, os, date);
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown");
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static long totalMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return -1;
    }
}
