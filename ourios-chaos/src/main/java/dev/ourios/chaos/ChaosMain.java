package dev.ourios.chaos;

import dev.ourios.store.ObjectStore;
import dev.ourios.store.StoreUri;
import dev.ourios.store.s3.S3StoreFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ourios-chaos}: the crash loop against a real store. Exit 0 when every invariant held, 1 when one broke, 2 on
 * bad usage (including a store that already holds data).
 */
@Command(name = "ourios-chaos", mixinStandardHelpOptions = true,
        description = "Kill real compactor and GC processes at random moments and at each protocol step while "
                + "readers count, then require zero torn reads, zero lost or duplicated rows, and a store that "
                + "converges to one live file per partition with no debris.")
public final class ChaosMain implements Callable<Integer> {
    @Option(names = "--store", required = true, paramLabel = "DIR|s3://bucket/prefix",
            description = "An empty store to torture: a directory or s3://bucket/prefix")
    String store;

    @Option(names = "--s3-endpoint", paramLabel = "URL", description = "S3 endpoint (default: $OURIOS_S3_ENDPOINT)")
    String s3Endpoint;

    @Option(names = "--iterations", defaultValue = "20", description = "Children to kill (default ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--seed", description = "Seed of data, kill schedule and pacing (default: the clock)")
    Long seed;

    @Option(names = "--work", paramLabel = "DIR", description = "Local scratch of the children (default: a temp dir)")
    Path work;

    @Option(names = "--query-threads", defaultValue = "2", description = "Concurrent query loops (default ${DEFAULT-VALUE})")
    int queryThreads;

    @Override
    public Integer call() throws Exception {
        long s = seed != null ? seed : System.nanoTime();
        Optional<String> endpoint = Optional.ofNullable(s3Endpoint != null ? s3Endpoint
                : System.getenv("OURIOS_S3_ENDPOINT")).filter(e -> !e.isBlank());
        Path workDir = work != null ? work : Files.createTempDirectory("ourios-chaos-");
        ChaosConfig config = ChaosConfig.of(store, endpoint, iterations, s, workDir,
                System.getProperty("java.class.path")).withQueryThreads(queryThreads);
        System.err.println("ourios-chaos: seed " + s + ", " + iterations + " iterations against " + store);
        try (ObjectStore st = open(store, endpoint)) {
            ChaosReport report = new ChaosRun(config, st).run();
            System.out.print(report.table());
            return report.ok() ? 0 : 1;
        }
    }

    static ObjectStore open(String uri, Optional<String> endpoint) {
        return StoreUri.isS3(uri) ? S3StoreFactory.open(uri, endpoint) : StoreUri.openLocal(uri);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String... args) {
        CommandLine cl = new CommandLine(new ChaosMain());
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("ourios-chaos: " + ex.getMessage());
            commandLine.getErr().flush();
            return ex instanceof IllegalArgumentException ? 2 : 1;
        });
        return cl.execute(args);
    }
}
