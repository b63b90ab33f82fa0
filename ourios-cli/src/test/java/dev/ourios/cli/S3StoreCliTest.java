package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.store.s3.S3ProxyServer;
import dev.ourios.testkit.HungEndpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI on S3 stores that are not there: an endpoint that accepts connections and never answers fails a command
 * within the configured deadlines (exit 1, one line), and a bucket that does not exist is bad input (exit 2, one
 * line naming the bucket) for every command that reads the store.
 */
class S3StoreCliTest {
    private static final Map<String, String> AWS = Map.of("AWS_ACCESS_KEY_ID", S3ProxyServer.IDENTITY,
            "AWS_SECRET_ACCESS_KEY", S3ProxyServer.CREDENTIAL, "AWS_REGION", "us-east-1");

    @TempDir
    Path dir;

    @Test
    void a_hung_endpoint_fails_query_within_the_deadline() throws Exception {
        try (HungEndpoint hung = HungEndpoint.start()) {
            Map<String, String> env = new java.util.HashMap<>(AWS);
            env.put("OURIOS_S3_READ_TIMEOUT", "500ms");
            env.put("OURIOS_S3_CALL_TIMEOUT", "2s");
            long start = System.nanoTime();
            CliProcess.Result r = CliProcess.run(dir, env, "query", "--store", "s3://logs/prod", "--s3-endpoint",
                    hung.uri().toString(), "--tenant", "acme");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertEquals(1, r.exit(), r.err());
            assertEquals(1, r.errLines().size(), r.err());
            String line = r.errLines().get(0);
            assertTrue(line.startsWith("ourios: --store s3://logs/prod: S3 endpoint " + hung.uri()), line);
            assertTrue(line.contains("store.s3."), line);
            // a child JVM start included; without deadlines this waits minutes
            assertTrue(took.compareTo(Duration.ofSeconds(30)) < 0, "took " + took);
        }
    }

    @Test
    void a_bad_deadline_variable_is_refused_by_name() throws Exception {
        CliProcess.Result r = CliProcess.run(dir, Map.of("OURIOS_S3_CALL_TIMEOUT", "soon"), "files", "--store",
                "s3://logs/prod", "--s3-endpoint", "http://127.0.0.1:9", "--tenant", "acme");
        assertEquals(2, r.exit(), r.err());
        assertEquals(List.of("ourios: OURIOS_S3_CALL_TIMEOUT: 'soon' is not a duration (use e.g. 15m, 10s, 2h, 1h30m)"),
                r.errLines());
    }

    @Test
    void a_missing_bucket_is_refused_by_every_reader() throws Exception {
        S3ProxyServer s3 = S3ProxyServer.start();
        try {
            s3.createBucket("logs");
            Map<String, String> env = new java.util.HashMap<>(AWS);
            env.put("OURIOS_S3_ENDPOINT", s3.endpoint().toString());
            for (List<String> command : List.of(List.of("query", "--tenant", "acme"), List.of("verify"),
                    List.of("gc"), List.of("compact", "--once"))) {
                List<String> args = new java.util.ArrayList<>(command);
                args.addAll(List.of("--store", "s3://lgos/prod"));
                CliProcess.Result r = CliProcess.run(dir, env, args.toArray(String[]::new));
                assertEquals(2, r.exit(), command + ": " + r.err());
                assertEquals(List.of("ourios: --store s3://lgos/prod: bucket 'lgos' does not exist at "
                        + s3.endpoint()), r.errLines(), command.toString());
            }
            CliProcess.Result ok = CliProcess.run(dir, env, "verify", "--store", "s3://logs/prod");
            assertEquals(0, ok.exit(), ok.err());
        } finally {
            s3.close();
        }
    }
}
