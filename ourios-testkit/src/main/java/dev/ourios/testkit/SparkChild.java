package dev.ourios.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs the Spark reader of module ourios-spark ({@code dev.ourios.spark.SparkJob}) in a child JVM on Spark's own
 * class path, which never meets the parent's (Spark needs other Jackson, Parquet and Hadoop versions), and parses
 * what it prints. The class path comes from two system properties, {@code ourios.spark.classes} (the module's
 * classes) and {@code ourios.spark.classpath} (a file holding its dependencies' class path), which the opt-in
 * Spark test and {@code ourios-bench.sh} set when the module is built ({@code -Dourios.spark=true}).
 */
public final class SparkChild {
    /** The JDK 17 module openings Spark's memory and serialization code needs. */
    static final List<String> OPENS = List.of("java.base/java.lang", "java.base/java.lang.invoke",
            "java.base/java.lang.reflect", "java.base/java.io", "java.base/java.net", "java.base/java.nio",
            "java.base/java.util", "java.base/java.util.concurrent", "java.base/java.util.concurrent.atomic",
            "java.base/sun.nio.ch", "java.base/sun.nio.cs", "java.base/sun.security.action",
            "java.base/sun.util.calendar");

    /**
     * What Spark did with one read.
     *
     * @param rows          rows the read returned (0 when refused)
     * @param filesRead     files the scan read, -1 when the scan has no such metric
     * @param pushedFilters the filters the scan pushed into the Parquet reader
     * @param millis        the measured rounds' times
     * @param fingerprints  every row's fingerprint, when rows were asked for
     * @param refusal       the reader's error, when it refused the read
     */
    public record Result(long rows, long filesRead, String pushedFilters, List<Double> millis,
            List<String> fingerprints, Optional<String> refusal) {
    }

    private final String classpath;
    private final String heap;

    private SparkChild(String classpath, String heap) {
        this.classpath = classpath;
        this.heap = heap;
    }

    /** The Spark reader, if the module is built and its location given; empty otherwise. */
    public static Optional<SparkChild> fromSystemProperties(String heap) throws IOException {
        String classes = System.getProperty("ourios.spark.classes");
        String cpFile = System.getProperty("ourios.spark.classpath");
        if (classes == null || cpFile == null || !Files.isDirectory(Path.of(classes))
                || !Files.isRegularFile(Path.of(cpFile))) {
            return Optional.empty();
        }
        String deps = Files.readString(Path.of(cpFile), StandardCharsets.UTF_8).trim();
        return Optional.of(new SparkChild(classes + java.io.File.pathSeparator + deps, heap));
    }

    /** Runs the job ({@code dev.ourios.spark.JobSpec}'s format) and returns each read's result by name. */
    public Map<String, Result> run(List<String> jobLines, Path workDir, Duration timeout) throws IOException,
            InterruptedException {
        Files.createDirectories(workDir);
        Path job = Files.createTempFile(workDir, "spark-job", ".tsv");
        Files.write(job, jobLines, StandardCharsets.UTF_8);
        List<String> jvm = new ArrayList<>();
        OPENS.forEach(o -> jvm.add("--add-opens=" + o + "=ALL-UNNAMED"));
        jvm.add("-Djdk.reflect.useDirectMethodHandle=false");
        jvm.add("-Dio.netty.tryReflectionSetAccessible=true");
        try (ChildJvm child = ChildJvm.main("dev.ourios.spark.SparkJob").name("spark").classpath(classpath)
                .heap(heap).jvmArgs(jvm.toArray(new String[0])).workDir(workDir).logDir(workDir)
                .args(job.toString()).start()) {
            int exit = child.waitFor(timeout);
            if (exit != 0) {
                throw new IOException("the Spark child exited with " + exit + "; its log: " + child.stderrFile()
                        + "\n" + child.output());
            }
            return parse(child.stdoutLines());
        }
    }

    static Map<String, Result> parse(List<String> lines) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        Map<String, List<Double>> millis = new LinkedHashMap<>();
        Map<String, Result> out = new LinkedHashMap<>();
        for (String line : lines) {
            String[] f = line.split("\t", 5);
            switch (f[0]) {
                case "ROW" -> rows.computeIfAbsent(f[1], k -> new ArrayList<>()).add(f[2]);
                case "TIMING" -> millis.computeIfAbsent(f[1], k -> new ArrayList<>()).add(Double.parseDouble(f[2]));
                case "RESULT" -> out.put(f[1], new Result(Long.parseLong(f[2]), Long.parseLong(f[3]), f[4],
                        millis.getOrDefault(f[1], List.of()), rows.getOrDefault(f[1], List.of()), Optional.empty()));
                case "REFUSED" -> out.put(f[1], new Result(0, -1, "", List.of(), List.of(), Optional.of(f[2])));
                default -> { } // Spark's own output
            }
        }
        return out;
    }
}
