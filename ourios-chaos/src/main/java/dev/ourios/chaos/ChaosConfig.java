package dev.ourios.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One chaos run's settings, validated once.
 *
 * @param store          the store URI the children get ({@code --store}); must hold no data when the run starts
 * @param s3Endpoint     {@code --s3-endpoint} for S3-compatible servers
 * @param iterations     crash iterations (one child process killed or halted per iteration)
 * @param seed           seeds the data, the kill schedule and the pacing (interleavings are not replayable)
 * @param work           local directory for the children's scratch (spill runs) and nothing else
 * @param childClasspath classpath of the child JVMs: this jar when run as {@code ourios-chaos}
 * @param tenants        tenant ids of the generated data (one hostile on purpose)
 * @param hours          hours per tenant
 * @param filesPerHour   ingest files per partition at the start
 * @param rowsPerFile    rows per ingest file
 * @param queryThreads   concurrent query loops
 * @param childGcGrace   GC grace of the children killed mid-run: short, so later children collect earlier debris,
 *                       yet far longer than a query of these small partitions takes to plan and read
 * @param haltEvery      every this many iterations (0, k, 2k, ...) the child halts at the next protocol step in turn
 *                       instead of a random SIGKILL
 */
public record ChaosConfig(String store, Optional<String> s3Endpoint, int iterations, long seed, Path work,
        String childClasspath, List<String> tenants, int hours, int filesPerHour, int rowsPerFile, int queryThreads,
        Duration childGcGrace, int haltEvery) {

    public ChaosConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(s3Endpoint, "s3Endpoint");
        Objects.requireNonNull(work, "work");
        Objects.requireNonNull(childClasspath, "childClasspath");
        tenants = List.copyOf(tenants);
        if (iterations < 1) {
            throw new IllegalArgumentException("--iterations must be at least 1 (got " + iterations + ")");
        }
        if (queryThreads < 0) {
            throw new IllegalArgumentException("--query-threads must not be negative (got " + queryThreads + ")");
        }
        if (haltEvery < 1) {
            throw new IllegalArgumentException("haltEvery must be at least 1 (got " + haltEvery + ")");
        }
        if (tenants.isEmpty() || hours < 1 || filesPerHour < 1 || rowsPerFile < 1) {
            throw new IllegalArgumentException("the generated data must not be empty");
        }
    }

    /** The data shape of every run: small partitions, so a child's sweep is short and kills land inside it. */
    public static ChaosConfig of(String store, Optional<String> s3Endpoint, int iterations, long seed, Path work,
            String childClasspath) {
        return new ChaosConfig(store, s3Endpoint, iterations, seed, work, childClasspath,
                List.of("acme", "b/../%2F\u0000\uD83D\uDE00"), 2, 3, 150, 2, Duration.ofSeconds(3), 3);
    }

    public ChaosConfig withQueryThreads(int n) {
        return new ChaosConfig(store, s3Endpoint, iterations, seed, work, childClasspath, tenants, hours,
                filesPerHour, rowsPerFile, n, childGcGrace, haltEvery);
    }

    public ChaosConfig withHaltEvery(int k) {
        return new ChaosConfig(store, s3Endpoint, iterations, seed, work, childClasspath, tenants, hours,
                filesPerHour, rowsPerFile, queryThreads, childGcGrace, k);
    }
}
